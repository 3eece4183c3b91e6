import Foundation
import ReelKit

/// The file formats of `reel analyze --format`: a CSV list of shots and highlights, a CMX3600
/// edit decision list of the highlights, and SRT chapters of the shots.
enum AnalysisExport {
    /// A time as `HH:MM:SS.mmm`.
    static func timecode(_ seconds: Double) -> String {
        let milliseconds = Int((max(seconds, 0) * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                      milliseconds / 1000 % 60, milliseconds % 1000)
    }

    /// The number of the frame shown at `seconds` (the first is 0), at `frameRate`.
    static func frame(_ seconds: Double, frameRate: Double) -> Int {
        // Times are kept in microseconds: a frame's own time may fall a hair short of it.
        Int((seconds * frameRate + 1e-3).rounded(.down))
    }

    /// The highest level among the segments that overlap `range`.
    static func level(of range: TimeRange, in analysis: VideoAnalysis) -> Float {
        analysis.segments.filter { $0.timeRange.end > range.start && $0.timeRange.start < range.end }.map(\.level).max() ?? 0
    }

    /// One row per shot, then one per highlight, then (for a dead-air cut) one per part kept and
    /// one per part cut: `kind,index,start,end,duration,start_timecode,end_timecode,start_frame,
    /// end_frame,level` (seconds; frames counted from 0, the end frame being the first one after
    /// the range; level the highest of the range's segments).
    static func csv(_ analysis: VideoAnalysis, highlights: [TimeRange], frameRate: Double, deadAir: DeadAirReport? = nil) -> String {
        var lines = ["kind,index,start,end,duration,start_timecode,end_timecode,start_frame,end_frame,level"]
        let cut = deadAir.map { [("kept", $0.kept), ("cut", $0.cuts)] } ?? []
        for (kind, ranges) in [("shot", analysis.shots), ("highlight", highlights)] + cut {
            for (index, range) in ranges.enumerated() {
                let start = range.start.seconds, end = range.end.seconds
                lines.append([
                    kind, "\(index + 1)", String(format: "%.3f", start), String(format: "%.3f", end),
                    String(format: "%.3f", end - start), timecode(start), timecode(end),
                    "\(frame(start, frameRate: frameRate))", "\(frame(end, frameRate: frameRate))",
                    String(format: "%.2f", level(of: range, in: analysis)),
                ].joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A CMX3600 edit list of the highlights, one video cut event each, laid end to end on the
    /// record side from 00:00:00:00, at the frame rate rounded to whole frames, non-drop-frame.
    static func edl(highlights: [TimeRange], frameRate: Double, title: String, clipName: String) -> String {
        let base = max(Int(frameRate.rounded()), 1)
        func smpte(_ seconds: Double) -> String {
            let frames = Int((max(seconds, 0) * Double(base)).rounded())
            return String(format: "%02d:%02d:%02d:%02d", frames / (base * 3600), frames / (base * 60) % 60, frames / base % 60, frames % base)
        }
        var lines = ["TITLE: \(title)", "FCM: NON-DROP FRAME", ""]
        var record = 0.0
        for (index, range) in highlights.enumerated() {
            let length = (range.end - range.start).seconds
            lines.append(String(format: "%03d  AX       V     C        ", index + 1)
                + "\(smpte(range.start.seconds)) \(smpte(range.end.seconds)) \(smpte(record)) \(smpte(record + length))")
            lines.append("* FROM CLIP NAME: \(clipName)")
            lines.append("")
            record += length
        }
        return lines.joined(separator: "\n")
    }

    /// SRT chapters: one cue per shot, `Shot N (level L)`, with ` - highlight` when a highlight
    /// overlaps it.
    static func srt(_ analysis: VideoAnalysis, highlights: [TimeRange]) -> String {
        func time(_ seconds: Double) -> String { timecode(seconds).replacingOccurrences(of: ".", with: ",") }
        var cues: [String] = []
        for (index, shot) in analysis.shots.enumerated() {
            let highlighted = highlights.contains { $0.end > shot.start && $0.start < shot.end }
            let text = String(format: "Shot %d (level %.0f)", index + 1, level(of: shot, in: analysis)) + (highlighted ? " - highlight" : "")
            cues.append("\(index + 1)\n\(time(shot.start.seconds)) --> \(time(shot.end.seconds))\n\(text)\n")
        }
        return cues.joined(separator: "\n")
    }
}
