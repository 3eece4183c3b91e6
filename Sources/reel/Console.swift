import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output and standard error, and what kind of terminal they are.
enum Console {
    /// Writes `text` and a newline to standard output.
    static func printOut(_ text: String) {
        writeAll(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` to standard error exactly as given.
    static func printErr(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    /// Writes the one-line error `reel: message` to standard error.
    static func error(_ message: String) {
        printErr("reel: \(message)\n")
    }

    /// Writes the warning `reel: warning: message` to standard error.
    static func warning(_ message: String) {
        printErr("reel: warning: \(message)\n")
    }

    /// Whether standard error is a terminal (progress bars are drawn only then).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The width of the terminal on `descriptor`, or nil when it is not a terminal.
    static func terminalWidth(of descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The width help text is wrapped to: the terminal's, kept between 60 and 100, else 80.
    static var helpWidth: Int {
        min(max(terminalWidth(of: STDOUT_FILENO) ?? 80, 60), 100)
    }

    /// Writes all of `text` to `descriptor`, retrying short writes.
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
