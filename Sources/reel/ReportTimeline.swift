import Foundation
import ReelKit

/// The SVG timeline of an analysis report: a time axis, shots as bands with gradual
/// transitions marked, highlights as bars, the engagement level as a curve, the key frame as a
/// line, and a lane of the samples where faces were seen.
enum ReportTimeline {
    /// Drawing width in user units (the SVG scales to the page).
    static let width = 1000.0
    static let height = 200.0

    /// The timeline as one `<svg id="timeline">` element.
    /// Height of one person's lane.
    static let laneHeight = 16.0

    static func svg(_ analysis: VideoAnalysis, highlights: [TimeRange], people: [ReportPerson] = []) -> String {
        let height = Self.height + laneHeight * Double(people.count)
        let duration = max(analysis.duration, 0.001)
        func x(_ seconds: Double) -> Double { min(max(seconds / duration, 0), 1) * width }
        func number(_ value: Double) -> String { String(format: "%.2f", value) }
        var parts: [String] = []
        // Time axis: about ten ticks at a round step.
        let steps: [Double] = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
        let step = steps.first { duration / $0 <= 10 } ?? 3600
        var tick = 0.0
        while tick <= duration + 1e-6 {
            parts.append("<line class=\"tick\" x1=\"\(number(x(tick)))\" y1=\"14\" x2=\"\(number(x(tick)))\" y2=\"\(number(height))\"/>")
            let anchor = tick == 0 ? "start" : (x(tick) > width - 30 ? "end" : "middle")
            parts.append("<text x=\"\(number(x(tick)))\" y=\"11\" text-anchor=\"\(anchor)\">\(Formatting.clock(tick))</text>")
            tick += step
        }
        // Shots as alternating bands, gradual transitions as orange marks.
        for (index, shot) in analysis.shots.enumerated() {
            let start = x(shot.start.seconds), end = x(shot.end.seconds)
            parts.append("<rect class=\"shot\" x=\"\(number(start))\" y=\"20\" width=\"\(number(max(end - start, 0.5)))\" height=\"16\" "
                + "fill=\"\(index % 2 == 0 ? "#c9d3e6" : "#a9b7d4")\"><title>shot \(index + 1)</title></rect>")
        }
        for boundary in analysis.boundaries where boundary.kind == .gradual {
            parts.append("<rect class=\"gradual\" x=\"\(number(x(boundary.time.seconds) - 1.5))\" y=\"18\" width=\"3\" height=\"20\" fill=\"#e8871e\"/>")
        }
        // Highlights as bars.
        for range in highlights {
            let start = x(range.start.seconds), end = x(range.end.seconds)
            parts.append("<rect class=\"highlight\" x=\"\(number(start))\" y=\"42\" width=\"\(number(max(end - start, 1)))\" height=\"12\" "
                + "fill=\"#f2a900\" rx=\"2\"/>")
        }
        // The level curve: a step for each segment, 0 at the bottom and 9 at the top.
        let top = 62.0, bottom = 170.0
        func y(_ level: Float) -> Double { bottom - (bottom - top) * Double(level) / 9 }
        var points = ["\(number(0)),\(number(bottom))"]
        for segment in analysis.segments {
            points.append("\(number(x(segment.timeRange.start.seconds))),\(number(y(segment.level)))")
            points.append("\(number(x(segment.timeRange.end.seconds))),\(number(y(segment.level)))")
        }
        points.append("\(number(width)),\(number(bottom))")
        parts.append("<polygon class=\"levels\" points=\"\(points.joined(separator: " "))\" fill=\"#4f7cc2\" fill-opacity=\"0.35\" "
            + "stroke=\"#2b5797\" stroke-width=\"1.2\"/>")
        parts.append("<line class=\"tick\" x1=\"0\" y1=\"\(number(y(6)))\" x2=\"\(number(width))\" y2=\"\(number(y(6)))\" stroke-dasharray=\"4 3\"/>")
        parts.append("<text x=\"\(number(width - 2))\" y=\"\(number(y(6) - 3))\" text-anchor=\"end\">level 6</text>")
        // Faces: a dot on each searched sample that showed one.
        for sample in analysis.faces where sample.presence.count > 0 {
            parts.append("<circle class=\"face\" cx=\"\(number(x(sample.time.seconds)))\" cy=\"186\" r=\"3\" fill=\"#8a4fc2\"/>")
        }
        parts.append("<text x=\"2\" y=\"197\">faces</text>")
        // People from a face index: a lane each, a mark where the index saw them.
        for (lane, person) in people.enumerated() {
            let y = Self.height + laneHeight * Double(lane)
            parts.append("<g class=\"person\"><text x=\"2\" y=\"\(number(y + 11))\">\(ReportPage.escaped(person.name))</text>")
            for time in person.times {
                parts.append("<rect x=\"\(number(x(time) - 2))\" y=\"\(number(y + 3))\" width=\"4\" height=\"10\" fill=\"#8a4fc2\"/>")
            }
            parts.append("</g>")
        }
        if let key = analysis.keyFrame {
            parts.append("<line class=\"keyframe\" x1=\"\(number(x(key.seconds)))\" y1=\"18\" x2=\"\(number(x(key.seconds)))\" "
                + "y2=\"\(number(bottom + 1))\" stroke=\"#d62728\" stroke-width=\"2\"/>")
            // Under the curve's floor, clear of it and of the faces lane (it sat on the curve).
            let nearEnd = x(key.seconds) > width - 60
            parts.append("<text x=\"\(number(x(key.seconds) + (nearEnd ? -3 : 3)))\" y=\"\(number(bottom + 10))\" "
                + "text-anchor=\"\(nearEnd ? "end" : "start")\" fill=\"#d62728\">key frame</text>")
        }
        return "<svg id=\"timeline\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"timeline\">"
            + parts.joined() + "</svg>"
    }
}

/// A person from a face index, for a report's lanes: a label and the times they were seen.
struct ReportPerson {
    var name: String
    var times: [Double]
}
