import ReelKit

/// The human-readable result of `reel compress`: a summary for one file, a table for a batch.
enum ResultReport {
    /// What the virtual camera did: shape, shots, how many it panned in or showed whole.
    static func framingText(_ path: CameraPath) -> String {
        let whole = path.shots.filter(\.showsWholePicture).count
        let panned = path.shots.filter { shot in
            !shot.showsWholePicture && (shot.positions.max() ?? 0) - (shot.positions.min() ?? 0) > 0.005
        }.count
        let shots = path.shots.count == 1 ? "1 shot" : "\(path.shots.count) shots"
        return "\(path.aspect), following the subject over \(shots): \(panned) with a pan"
            + (whole > 0 ? ", \(whole) shown whole" : "")
    }

    /// How much a dead-air cut took out: `4 pauses below -34.0 dB: 6.76 s of 15.00 s (45%)`.
    static func deadAirText(_ report: DeadAirReport) -> String {
        let searched = report.searchedDuration
        let share = searched > 0 ? Int((report.cutDuration / searched * 100).rounded()) : 0
        let count = report.cuts.count == 1 ? "1 pause" : "\(report.cuts.count) pauses"
        let still = report.options.requiresStillPicture ? " over a still picture" : ""
        let level = report.silenceLevelDecibels.map { String(format: " below %.1f dB", $0) } ?? ""
        return count + still + level + String(format: ": %.2f s of %.2f s (%d%%)", report.cutDuration, searched, share)
    }

    /// Source ranges in seconds as `--ranges` takes them: `1.30-2.98,4.58-7.86`.
    static func rangeList(_ ranges: [TimeRange]) -> String {
        ranges.isEmpty ? "none" : ranges.map { String(format: "%.2f-%.2f", $0.start.seconds, $0.end.seconds) }.joined(separator: ",")
    }

    /// The summary of one compressed file, e.g. sizes, ratio, dimensions, bit rates, time.
    static func single(_ outcome: FileOutcome) -> String? {
        let file = outcome.file
        switch outcome.status {
        case .planned:
            let ranges = outcome.plannedRanges.map { ranges in
                " keeping " + ranges.map { "\(Formatting.clock($0.start.seconds))-\(Formatting.clock($0.end.seconds))" }
                    .joined(separator: ", ")
            } ?? ""
            let dissolves = outcome.plannedDissolves.flatMap { planned in
                planned.joins.isEmpty ? nil : String(format: "\n  dissolves (%.2g s) at the join%@ after range%@ ", planned.seconds,
                                                     planned.joins.count == 1 ? "" : "s", planned.joins.count == 1 ? "" : "s")
                    + planned.joins.map { String($0 + 1) }.joined(separator: ", ")
            } ?? ""
            let note = outcome.message.map { "\n  note: " + $0 } ?? ""
            let cut = outcome.deadAir.map { report in
                "\n  cut: " + deadAirText(report) + "\n  cuts: " + rangeList(report.cuts)
                    + "\n  keeps (--ranges): " + rangeList(report.kept)
            } ?? ""
            return "would compress \(file.input.display) -> \(file.outputDisplay)" + ranges + dissolves + note + cut
        case .skipped: return "skipped \(file.input.display): \(outcome.message ?? "")"
        case .failed, .cancelled: return nil
        case .compressed: break
        }
        guard let result = outcome.analytics else { return nil }
        let kept = result.keptRanges.map { ($0.end - $0.start).seconds }.reduce(0, +)
        // A source cut short holds only the seconds its data covers, and its bytes are theirs.
        let available = result.sourceCutShortAt ?? result.originalDuration
        let isPart = available > 0 && kept > 0 && kept < available - 0.1
        var rows: [(String, String)] = []
        if isPart {
            // A reel or a trim: its size against the same stretch of source, not the whole file.
            let share = Int64((Double(result.originalFileSize) * kept / available).rounded())
            rows.append(("kept", result.keptRanges.map { "\(Formatting.clock($0.start.seconds))-\(Formatting.clock($0.end.seconds))" }
                .joined(separator: ", ") + String(format: " (%.1f s of %.1f s)", kept, available)
                + (Self.copyWidened(result).map { String(format: "; %.1f s asked, a copy cuts only at keyframes", $0.asked) } ?? "")))
            var part = result
            part.originalFileSize = share
            part.compressionRatio = result.compressedFileSize > 0 ? Double(share) / Double(result.compressedFileSize) : 0
            rows.append(("size", "~\(Formatting.bytes(share)) of source -> \(Formatting.bytes(result.compressedFileSize)) ("
                + Self.sizeChange(part) + "); the whole source is \(Formatting.bytes(result.originalFileSize))"))
        } else {
            rows.append(("size", "\(Formatting.bytes(result.originalFileSize)) -> "
                + "\(Formatting.bytes(result.compressedFileSize)) (" + Self.sizeChange(result) + ")"))
        }
        rows += [
            ("dimensions", "\(result.originalDimensions) -> \(result.compressedVisualDimensions)"),
            ("video", "\(Formatting.bitrate(result.originalVideoBitrate)) -> "
                + "\(Formatting.bitrate(result.compressedVideoBitrate)), "
                + "\(result.videoCodec + (result.streamCopied ? " (copied)" : "")), "
                + "\(Formatting.frameRate(result.compressedFrameRate)) fps"),
            ("audio", audioText(result)),
            ("duration", Formatting.seconds(result.compressedDuration)),
        ]
        if let loudness = result.loudness { rows.append(("loudness", loudnessText(loudness))) }
        if let hdr = result.encoding?.hdr { rows.append(("hdr", hdr.summary)) }
        if let path = result.cameraPath { rows.append(("framing", framingText(path))) }
        if let report = outcome.deadAir { rows.append(("cut", deadAirText(report))) }
        rows.append(("time", timeText(result, analyzed: outcome.analysis != nil || result.targetQuality != nil)))
        if result.corruptPacketsSkipped > 0 || result.damagedFrames > 0 {
            rows.append(("damage", "\(result.corruptPacketsSkipped) corrupt source packets skipped, "
                + "\(result.damagedFrames) damaged pictures concealed"))
        }
        if let end = result.sourceCutShortAt {
            rows.append(("cut short", String(format: "the source's data ends at %.2f s of %.2f s", end, result.originalDuration)))
        }
        if result.mistimedFramesDropped > 0 {
            rows.append(("mistimed", "\(result.mistimedFramesDropped) source pictures timed before the picture "
                + "shown before them, dropped"))
        }
        if !result.droppedTracks.isEmpty {
            let tracks = result.droppedTracks.map { track in
                "#\(track.index) \(track.role.rawValue) (\(track.codecName))"
            }
            rows.append(("left out", tracks.joined(separator: ", ")))
        }
        let lines = rows.map { "  " + Formatting.padded($0.0, 12) + $0.1 }
        return (["\(file.input.display) -> \(file.outputDisplay)"] + lines)
            .joined(separator: "\n")
    }

    /// The table of a batch: one row per input, then the totals.
    static func table(_ outcomes: [FileOutcome], processingTime: Double) -> String {
        var rows = [["STATUS", "INPUT", "OUTPUT", "RESULT"]]
        for outcome in outcomes {
            rows.append([
                outcome.status.rawValue, outcome.file.input.display, outcome.file.outputDisplay,
                resultText(outcome),
            ])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            (0..<3).map { Formatting.padded(row[$0], widths[$0]) }.joined(separator: "  ")
                + "  " + row[3]
        }
        lines = lines.map(trimmingTrailingSpaces)
        var counts: [String] = []
        for status in [FileStatus.compressed, .planned, .skipped, .failed, .cancelled] {
            let count = outcomes.filter { $0.status == status }.count
            if count > 0 { counts.append("\(count) \(status.rawValue)") }
        }
        let noun = outcomes.count == 1 ? "file" : "files"
        lines.append("\(outcomes.count) \(noun): " + counts.joined(separator: ", ")
            + " in " + Formatting.elapsed(processingTime))
        return lines.joined(separator: "\n")
    }

    /// The seconds asked for and kept, when a lossless copy kept notably more (its ranges widened
    /// to the keyframes around them: vtest.avi's are 25 s apart, so its first 5 s copy as 25 s).
    static func copyWidened(_ result: CompressionAnalytics) -> (asked: Double, kept: Double)? {
        guard result.streamCopied else { return nil }
        let asked = result.requestedRanges.map { ($0.end - $0.start).seconds }.reduce(0, +)
        let kept = result.keptRanges.map { ($0.end - $0.start).seconds }.reduce(0, +)
        return asked > 0 && kept > asked + max(1, 0.2 * asked) ? (asked, kept) : nil
    }

    /// `5.3x smaller, 81% saved`, or plainly `4% larger` when the output grew.
    static func sizeChange(_ result: CompressionAnalytics) -> String {
        guard result.originalFileSize > 0, result.compressedFileSize > 0 else { return "size unknown" }
        if result.compressedFileSize > result.originalFileSize {
            let factor = Double(result.compressedFileSize) / Double(result.originalFileSize)
            return Formatting.growth(factor) + " than the source"
        }
        let saved = 100 * (1 - Double(result.compressedFileSize) / Double(result.originalFileSize))
        // "1.0x smaller, 0% saved" says nothing: a few percent read as such.
        if saved < 5 { return String(format: "%.1f%% smaller", saved) }
        return Formatting.speed(result.compressionRatio) + " smaller, " + String(format: "%.0f%% saved", saved)
    }

    /// The RESULT column: sizes and ratio, the skip reason, or the failure's cause.
    private static func resultText(_ outcome: FileOutcome) -> String {
        switch outcome.status {
        case .compressed:
            guard let result = outcome.analytics else { return "" }
            return "\(Formatting.bytes(result.originalFileSize)) -> "
                + "\(Formatting.bytes(result.compressedFileSize)) "
                + "(\(sizeChange(result)), \(Formatting.elapsed(result.processingTime)))"
        case .skipped:
            return outcome.message ?? ""
        case .failed:
            let message = outcome.message ?? ""
            let prefix = outcome.file.input.display + ": "
            return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        case .cancelled:
            return "interrupted"
        case .planned:
            return "will be compressed" + (outcome.message.map { "; " + $0 } ?? "")
        }
    }

    /// The time row: the whole compression and how fast against the output's duration; with
    /// its parts when planning took a noticeable share (`analyzed`: a reel's analysis or a
    /// target quality's shot detection), e.g. `18.5 s: analysis 11.9 s, encoding 6.6 s (...)`.
    static func timeText(_ result: CompressionAnalytics, analyzed: Bool) -> String {
        var time = Formatting.elapsed(result.processingTime)
        if let planning = result.planningTime, planning >= 0.1 {
            time += ": \(analyzed ? "analysis" : "planning") " + Formatting.elapsed(planning)
                + ", encoding " + Formatting.elapsed(max(result.processingTime - planning, 0))
        }
        if result.processingTime > 0 {
            time += " (" + Formatting.speed(result.compressedDuration / result.processingTime) + " realtime)"
        }
        return time
    }

    /// The audio row: bit rates, or that the output has none.
    private static func audioText(_ result: CompressionAnalytics) -> String {
        guard let compressed = result.compressedAudioBitrate else { return "none" }
        let original = result.originalAudioBitrate.map(Formatting.bitrate) ?? "none"
        return "\(original) -> \(Formatting.bitrate(compressed))"
    }

    /// The loudness row: before and after, and what was done, e.g. `-30.4 LUFS, peak -6.4 dBTP
    /// -> -14.2 LUFS, peak -1.3 dBTP (+16.4 dB, peaks limited)`.
    static func loudnessText(_ report: LoudnessReport) -> String {
        func levels(_ sound: MeasuredLoudness) -> String {
            String(format: "%.1f LUFS, peak %.1f dBTP", sound.integrated, sound.truePeak)
        }
        let after = report.output.map(levels) ?? "not measured"
        return levels(report.source) + " -> " + after
            + String(format: " (%+.1f dB%@)", report.gain, report.limited ? ", peaks limited" : "")
    }

    /// `line` without trailing spaces.
    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var result = Substring(line)
        while result.last == " " { result = result.dropLast() }
        return String(result)
    }
}
