import Foundation
import ReelMedia
import ReelSupport

/// Finds a source's dead air: decodes its sound once, alone (no picture is decoded), or, when a
/// pause is cut only where the picture stands still, its sound and small sampled pictures in
/// the analyzer's one cheap chunked pass; then works out what to cut (`DeadAirFinder`).
public enum DeadAirDetector {
    /// Seconds of sound per measured peak: cut points fall on this grid.
    static let window = 0.02
    /// Pictures measured per second with `requiresStillPicture`.
    static let pictureRate = 10.0
    /// The size of the measured pictures: a 1080p picture's typed character still changes one
    /// of their pixels.
    static let pictureWidth = 160, pictureHeight = 90

    /// The dead air of the probed `source` with `options`. Throws `ReelError.invalidConfiguration`
    /// for options that make no sense and for a source without sound when every pause is cut
    /// (nothing tells pauses apart there); cancelling the task stops it with `.cancelled`.
    public static func report(
        of source: MediaInfo, options: DeadAirOptions, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> DeadAirReport {
        do throws(ReelError) {
            try options.validate()
        } catch .invalidConfiguration(let reason, _) {
            throw .invalidConfiguration(reason, file: source.url)
        }
        if !options.requiresStillPicture && source.primaryAudioStreamIndex == nil {
            throw .invalidConfiguration("there is no sound to find pauses in (cutting where the picture stands still "
                + "works without sound)", file: source.url)
        }
        if options.requiresStillPicture { try source.requireVideo() }
        let reporter = ProgressReporter(progressHandler)
        let flag = CancellationFlag()
        let finder = DeadAirFinder(options: options)
        let report = try await BlockingWork.run(flag: flag) { () throws(ReelError) -> DeadAirReport in
            try translatingFailures(source: source.url, output: source.url) { () throws(MediaFailure) -> DeadAirReport in
                if options.requiresStillPicture {
                    let read = try PauseReader.soundAndPicture(
                        of: source, window: window, pictureRate: pictureRate, width: pictureWidth, height: pictureHeight,
                        shouldCancel: { flag.isRaised }, progress: { reporter.report($0) })
                    return finder.report(sound: read.sound, picture: read.picture, duration: source.duration)
                }
                let sound = try PauseReader.soundPeaks(
                    of: source, window: window, shouldCancel: { flag.isRaised }, progress: { reporter.report($0) })
                return finder.report(sound: sound, picture: nil, duration: source.duration)
            }
        }
        reporter.finish()
        if Task.isCancelled { throw .cancelled }
        return report
    }
}
