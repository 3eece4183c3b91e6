import Foundation
import ReelArguments

extension ParsedArguments {
    /// Whether the command may write `output` (shown to the user as `shown`): it does not exist
    /// yet, or `--overwrite` was given. When not, says so on standard error.
    func mayWrite(_ output: URL, shown: String) -> Bool {
        guard FileManager.default.fileExists(atPath: output.path) && !flag("overwrite") else { return true }
        Console.error("\(shown): already exists; use --overwrite to replace it")
        return false
    }
}
