import Foundation
import ReelKit

/// One self-contained HTML page of an analysis: summary, timeline, key frame, thumbnails and
/// tables. Inline CSS and SVG, images as data URIs, no scripts: it opens offline anywhere.
struct ReportPage {
    /// A picture for the page: JPEG bytes and what it shows.
    struct Picture {
        var jpeg: Data
        var time: Double
        var caption: String
    }

    var title: String
    var source: MediaInfo
    var analysis: VideoAnalysis
    var highlights: [TimeRange]
    var keyFrame: Picture?
    var shotPictures: [Picture]
    var highlightPictures: [Picture]
    var people: [ReportPerson] = []
    /// For `--report` of a compression: its section, shown first.
    var compression: CompressionReport?

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The page.
    func html() -> String {
        let frameRate = source.primaryVideo?.video?.frameRate ?? 30
        let video = source.primaryVideo, audio = source.primaryAudio
        let summary: [(String, String)] = [
            ("duration", Formatting.seconds(analysis.duration)),
            ("size", Formatting.bytes(source.fileSize)),
            ("video", [video?.codecName, video?.video.map { "\($0.visualWidth)x\($0.visualHeight)" },
                       video?.video.map { Formatting.frameRate($0.frameRate) + " fps" }].compactMap { $0 }.joined(separator: ", ")),
            ("audio", audio.map { [$0.codecName, $0.audio.map { "\($0.channels) ch, \($0.sampleRate) Hz" }].compactMap { $0 }.joined(separator: ", ") }
                ?? "none"),
            ("shots", "\(analysis.shots.count)"),
            ("highlights", highlights.isEmpty ? "none" : highlights.map { "\(Formatting.clock($0.start.seconds))-\(Formatting.clock($0.end.seconds))" }
                .joined(separator: ", ")),
            ("key frame", analysis.keyFrame.map { Formatting.seconds($0.seconds) } ?? "none"),
        ]
        var body = "<h1>\(Self.escaped(title))\(compression.map { " &rarr; " + Self.escaped($0.outputName) } ?? "")</h1>"
        if let compression { body += compression.html(input: title) + "<h2>The source</h2>" }
        body += "<table class=\"summary\">" + summary.map { "<tr><th>\($0.0)</th><td>\(Self.escaped($0.1))</td></tr>" }.joined() + "</table>"
        body += "<h2>Timeline</h2><div class=\"legend\"><span class=\"l-shot\">shots</span><span class=\"l-gradual\">gradual transition</span>"
            + "<span class=\"l-highlight\">highlights</span><span class=\"l-level\">engagement level 0-9</span>"
            + "<span class=\"l-key\">key frame</span><span class=\"l-face\">faces seen</span></div>"
        body += ReportTimeline.svg(analysis, highlights: highlights, people: people)
        if let keyFrame {
            body += "<h2>Key frame</h2><figure class=\"key\">\(Self.image(keyFrame))</figure>"
        }
        if !highlightPictures.isEmpty {
            body += "<h2>Highlights</h2><div class=\"grid\">" + highlightPictures.map { "<figure>\(Self.image($0))</figure>" }.joined() + "</div>"
        }
        if !shotPictures.isEmpty {
            body += "<h2>Shots</h2><div class=\"grid\">" + shotPictures.map { "<figure>\(Self.image($0))</figure>" }.joined() + "</div>"
        }
        body += "<h2>Highlight list</h2>" + table(highlights, frameRate: frameRate, id: "highlights")
        body += "<h2>Shot list</h2>" + table(analysis.shots, frameRate: frameRate, id: "shots")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(Self.escaped(title)) - reel report</title>
            <style>\(Self.style)</style></head><body>\(body)
            <footer>reel \(ToolDefinition.version): analysis of \(Self.escaped(title))</footer></body></html>
            """
    }

    private static func image(_ picture: Picture) -> String {
        "<img src=\"data:image/jpeg;base64,\(picture.jpeg.base64EncodedString())\" alt=\"\(escaped(picture.caption))\">"
            + "<figcaption>\(escaped(picture.caption))</figcaption>"
    }

    private func table(_ ranges: [TimeRange], frameRate: Double, id: String) -> String {
        guard !ranges.isEmpty else { return "<p>none</p>" }
        let rows = ranges.enumerated().map { index, range in
            let start = range.start.seconds, end = range.end.seconds
            let cells = ["\(index + 1)", String(format: "%.3f", start), String(format: "%.3f", end), String(format: "%.3f", end - start),
                         AnalysisExport.timecode(start), AnalysisExport.timecode(end),
                         "\(AnalysisExport.frame(start, frameRate: frameRate))", "\(AnalysisExport.frame(end, frameRate: frameRate))",
                         String(format: "%.1f", AnalysisExport.level(of: range, in: analysis))]
            return "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }
        return "<table class=\"list\" id=\"\(id)\"><thead><tr><th>#</th><th>start s</th><th>end s</th><th>duration s</th>"
            + "<th>start</th><th>end</th><th>start frame</th><th>end frame</th><th>level</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table>"
    }

    private static let style = """
        body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1040px;color:#1d2433;background:#fff}\
        h1{font-size:22px;margin:0 0 12px}h2{font-size:17px;margin:28px 0 8px}\
        table.summary th{text-align:left;padding:2px 16px 2px 0;color:#556}table.summary td{padding:2px 0}\
        #timeline,#bitrate{width:100%;height:auto;display:block;border:1px solid #d5dae3;background:#fafbfd}\
        #bitrate text{font-size:10px;fill:#445}table.compression td{padding-right:16px}\
        #timeline text{font-size:10px;fill:#445}#timeline .tick{stroke:#d5dae3;stroke-width:1}\
        .legend span{display:inline-block;margin-right:14px;font-size:12px}.legend span:before{content:"";display:inline-block;\
        width:10px;height:10px;margin-right:4px;vertical-align:middle}.l-shot:before{background:#a9b7d4}\
        .l-gradual:before{background:#e8871e}.l-highlight:before{background:#f2a900}.l-level:before{background:#4f7cc2}\
        .l-key:before{background:#d62728}.l-face:before{background:#8a4fc2;border-radius:5px}\
        .grid{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0}.grid img{width:240px;height:auto;display:block}\
        .key img{max-width:100%;height:auto}figcaption{font-size:12px;color:#445;margin-top:2px}\
        table.list{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}\
        table.list th,table.list td{border:1px solid #d5dae3;padding:2px 6px;text-align:right}\
        footer{margin-top:32px;font-size:11px;color:#889}
        """
}
