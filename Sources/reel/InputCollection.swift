import Foundation
import ReelArguments

/// One input file: where it is and how to name it in messages (as the user typed it).
struct InputItem: Sendable, Hashable {
    /// The absolute, standardized file URL.
    let url: URL
    /// The path as typed, or a directory as typed joined with the file's name.
    let display: String

    /// Creates the item for the path `display`, resolved against the working directory.
    init(display: String) {
        self.display = display
        self.url = URL(fileURLWithPath: display).standardizedFileURL
    }
}

/// Turns the `INPUT...` arguments into the sorted list of input files.
enum InputCollection {
    /// The file extensions (lowercase) taken from a directory as videos.
    static let videoExtensions: Set<String> = [
        "3g2", "3gp", "avi", "dv", "flv", "m2ts", "m2v", "m4v", "mkv", "mov", "mp4", "mpeg",
        "mpg", "mts", "mxf", "ogv", "qt", "ts", "vob", "webm", "wmv",
    ]

    /// The inputs named by `arguments`: files as given (even missing ones, which then fail),
    /// directories as their video files (hidden files and subdirectories skipped).
    ///
    /// The result is sorted by absolute path, byte by byte, without duplicates, so every
    /// machine that runs the same command sees the same list.
    static func collect(_ arguments: [String]) throws(CommandFailure) -> [InputItem] {
        var items: [InputItem] = []
        for argument in arguments {
            if isDirectory(argument) {
                items += try videoFiles(inDirectory: argument)
            } else {
                items.append(InputItem(display: argument))
            }
        }
        var seen: Set<String> = []
        return items
            .filter { seen.insert($0.url.path).inserted }
            .sorted { $0.url.path.utf8.lexicographicallyPrecedes($1.url.path.utf8) }
    }

    /// Whether any argument is a directory.
    static func containsDirectory(_ arguments: [String]) -> Bool {
        arguments.contains(where: isDirectory)
    }

    /// The shard `shard` of `items`: every `count`-th item starting with item `index`
    /// (counted from 1), so the shards 1/N ... N/N are disjoint and together hold every item.
    static func slice<Item>(_ items: [Item], shard: ParsedShard) -> [Item] {
        items.enumerated()
            .filter { $0.offset % shard.count == shard.zeroBasedIndex }
            .map(\.element)
    }

    /// The video files directly inside `directory`, named relative to it as typed.
    private static func videoFiles(inDirectory directory: String) throws(CommandFailure)
        -> [InputItem] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .failure("\(directory): cannot list the directory")
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return names
            .filter { !$0.hasPrefix(".") }
            .filter { videoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .map { InputItem(display: prefix + $0) }
            .filter { !isDirectory($0.url.path) }
    }

    /// Whether `path` names an existing directory (following symbolic links).
    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
