import Foundation

#if !canImport(Darwin)
extension URL {
    /// The user's Application Support directory, as on Apple systems: on Linux the XDG data
    /// directory (`$XDG_DATA_HOME`, else `~/.local/share`). Foundation on Linux lacks this
    /// property; MediaIntelligence code (a FaceGroupAnalyzer's index lives there) uses it.
    public static var applicationSupportDirectory: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
    }
}
#endif
