import Foundation

/// Where an output goes: the final URL and the temporary file written beside it, renamed on success.
package struct OutputLocation: Sendable {
    package let finalURL: URL
    package let temporaryURL: URL
    /// The outermost folder `resolve` created for the output (it and those inside it, up to
    /// the output's own, did not exist): removed again, when empty, if the work fails.
    package var createdDirectory: URL?

    /// The default output name for `source`: `NAME_compressed_XXXXXXXX.EXT` in `directory`
    /// (the system temporary directory when `nil`), unique per call.
    package static func generatedURL(for source: URL, in directory: URL?, fileExtension: String) -> URL {
        let directory = directory ?? FileManager.default.temporaryDirectory
        let base = source.deletingPathExtension().lastPathComponent
        let unique = UUID().uuidString.prefix(8).lowercased()
        return directory.appendingPathComponent("\(base)_compressed_\(unique).\(fileExtension)")
    }

    /// Checks that `finalURL` can be written for `source`: not the source itself, a file URL, no
    /// directory in its way, and its directory writable (or, when missing, creatable: its
    /// nearest existing ancestor is a writable directory), by creating and removing a hidden
    /// file there. Creates nothing that stays: no folder, no output.
    package static func check(for source: URL, finalURL: URL) throws(ReelError) {
        guard finalURL.isFileURL else { throw .invalidOutputPath(finalURL, reason: "not a file URL") }
        if samePath(finalURL, source) { throw .outputEqualsSource(source) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: finalURL.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .invalidOutputPath(finalURL, reason: "a directory is in the way")
        }
        var directory = finalURL.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        guard isDirectory.boolValue else { throw .invalidOutputPath(finalURL, reason: "\(directory.path) is not a directory") }
        guard FileManager.default.isWritableFile(atPath: directory.path) else {
            throw .invalidOutputPath(finalURL, reason: "\(directory.path) is not writable")
        }
        // Permissions do not tell everything (root passes them on read-only mounts and /proc):
        // a file is created and removed at once.
        let probe = directory.appendingPathComponent(".reel-write-check-\(UUID().uuidString.prefix(8).lowercased())")
        let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw .invalidOutputPath(finalURL, reason: "\(directory.path) is not writable: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        unlink(probe.path)
    }

    /// Checks that `finalURL` can be written for `source` (`check(for:finalURL:)`), creates its
    /// directory when missing, and picks the temporary name beside it.
    package static func resolve(for source: URL, finalURL: URL) throws(ReelError) -> OutputLocation {
        try check(for: source, finalURL: finalURL)
        let directory = finalURL.deletingLastPathComponent()
        var created: URL?
        var missing = directory
        while !FileManager.default.fileExists(atPath: missing.path), missing.path != "/" {
            created = missing
            missing = missing.deletingLastPathComponent()
        }
        if created != nil {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .invalidOutputPath(finalURL, reason: "cannot create \(directory.path)")
            }
        }
        let temporaryName = ".\(finalURL.lastPathComponent).reel-tmp-\(UUID().uuidString.prefix(8).lowercased())"
        return OutputLocation(finalURL: finalURL, temporaryURL: directory.appendingPathComponent(temporaryName),
                              createdDirectory: created)
    }

    /// Moves the finished temporary file into place (atomically replacing an older output).
    /// `error` naming the final URL where it named the temporary file.
    package func naming(_ error: ReelError) -> ReelError { error.replacingFile(temporaryURL, with: finalURL) }

    package func commit() throws(ReelError) {
        if rename(temporaryURL.path, finalURL.path) != 0 {
            let reason = String(cString: strerror(errno))
            abandon()
            throw .invalidOutputPath(finalURL, reason: "cannot rename the finished file: \(reason)")
        }
    }

    /// Removes the temporary file, if any (the work may go on and write it again).
    package func discard() {
        try? FileManager.default.removeItem(at: temporaryURL)
    }

    /// The work failed or was cancelled: the temporary file goes, and so do the folders
    /// `resolve` made for the output, where nothing else was put in them.
    package func abandon() {
        discard()
        removeCreatedDirectories()
    }

    /// `abandon()` for outputs written together into the same folders: every temporary file
    /// goes before any folder is tried.
    package static func abandon(_ locations: [OutputLocation]) {
        for location in locations { location.discard() }
        for location in locations { location.removeCreatedDirectories() }
    }

    /// Removes the folders `resolve` made for the output, innermost first, while they are empty.
    private func removeCreatedDirectories() {
        guard let createdDirectory else { return }
        var directory = finalURL.deletingLastPathComponent().standardizedFileURL
        let outermost = createdDirectory.standardizedFileURL.path
        while rmdir(directory.path) == 0, directory.path != outermost {
            directory = directory.deletingLastPathComponent()
        }
    }

    package static func samePath(_ lhs: URL, _ rhs: URL) -> Bool {
        let left = lhs.standardizedFileURL.resolvingSymlinksInPath().path
        let right = rhs.standardizedFileURL.resolvingSymlinksInPath().path
        return left == right
    }
}

/// Output checks for apps and the command line, run before any work so that a bad output path
/// fails at once rather than after a long analysis or encode.
public enum OutputCheck {
    /// Throws `ReelError.invalidOutputPath` (or `.outputEqualsSource`) when `output` cannot be
    /// written as an output of `source`: it is the source, a directory is in its way, or its
    /// directory is not writable (nor creatable). Leaves nothing on disk.
    public static func requireWritable(_ output: URL, for source: URL) throws(ReelError) {
        try OutputLocation.check(for: source, finalURL: output)
    }
}
