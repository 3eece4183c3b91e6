internal import CFFmpeg
import Synchronization

/// FFmpeg's log: silent by default (x264 logs through it too); `ReelLog` can route it to a handler.
enum FFmpegLogging {
    /// Installs the forwarding callback once and starts silent.
    private static let configured: Bool = {
        av_log_set_level(AV_LOG_QUIET)
        av_log_set_callback { context, level, format, arguments in
            if level <= AV_LOG_ERROR, let context {
                FFmpegLogging.watched.withLock { counts in counts[Int(bitPattern: context)]? += 1 }
            }
            guard level <= av_log_get_level(), let format, let arguments,
                  let current = FFmpegLogging.handler.withLock({ $0 })
            else { return }
            var line = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 1
            _ = line.withUnsafeMutableBufferPointer { buffer in
                av_log_format_line2(context, level, format, arguments, buffer.baseAddress, Int32(buffer.count), &printPrefix)
            }
            var text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            while text.hasSuffix("\n") { text.removeLast() }
            if !text.isEmpty { current(ReelLog.Level(ffmpegLevel: level), text) }
        }
        return true
    }()

    static let handler = Mutex<(@Sendable (ReelLog.Level, String) -> Void)?>(nil)

    /// Errors FFmpeg logged per watched object (a decoder's context, by address): some damage
    /// is only said there. H.264 decoding past a missing reference ("Missing reference picture")
    /// conceals it with another picture and flags nothing on the frame.
    private static let watched = Mutex<[Int: Int]>([:])

    /// Starts counting the errors logged by `object` (from 0).
    static func watchErrors(of object: UnsafeMutableRawPointer) {
        silence()
        watched.withLock { $0[Int(bitPattern: object)] = 0 }
    }

    /// The errors `object` logged since `watchErrors(of:)`.
    static func errors(of object: UnsafeMutableRawPointer) -> Int {
        watched.withLock { $0[Int(bitPattern: object)] ?? 0 }
    }

    /// Stops counting (before the object is freed: its address may be reused).
    static func unwatch(_ object: UnsafeMutableRawPointer) {
        _ = watched.withLock { $0.removeValue(forKey: Int(bitPattern: object)) }
    }

    /// Applies the default (silence) once per process, before the first FFmpeg call.
    static func silence() { _ = configured }

    static func install(level: ReelLog.Level, _ newHandler: (@Sendable (ReelLog.Level, String) -> Void)?) {
        silence()
        handler.withLock { $0 = newHandler }
        av_log_set_level(newHandler == nil ? AV_LOG_QUIET : level.rawValue)
    }
}

/// Routes FFmpeg's and the encoders' log lines to your handler; silent unless you install one.
public enum ReelLog {
    /// How serious a log line is.
    public enum Level: Int32, Sendable, Comparable {
        case error = 16, warning = 24, info = 32, verbose = 40, debug = 48

        init(ffmpegLevel: Int32) {
            switch ffmpegLevel {
            case ...16: self = .error
            case ...24: self = .warning
            case ...32: self = .info
            case ...40: self = .verbose
            default: self = .debug
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Sends FFmpeg log lines up to `level` to `handler`; `nil` silences FFmpeg again.
    /// The handler is called on FFmpeg's threads.
    public static func setHandler(level: Level = .warning, _ handler: (@Sendable (Level, String) -> Void)?) {
        FFmpegLogging.install(level: level, handler)
    }
}
