import Foundation
import ReelSupport

/// A `CompressionConfig` that passed `validate()`. Plans take it without checking again, so a
/// batch checks its settings once however many files it compresses. Only where the output goes
/// may change, since no check depends on it.
public struct ValidatedConfig: Sendable, Equatable {
    /// The checked settings.
    public let config: CompressionConfig

    fileprivate init(checked config: CompressionConfig) {
        self.config = config
    }

    /// The same settings, writing to `url`.
    public func writing(to url: URL) -> ValidatedConfig {
        var config = config
        config.outputURL = url
        config.outputDirectory = nil
        return ValidatedConfig(checked: config)
    }
}

extension CompressionConfig {
    /// This configuration checked (`validate()`), as plans take it.
    public func validated() throws(ReelError) -> ValidatedConfig {
        try validate()
        return ValidatedConfig(checked: self)
    }
}
