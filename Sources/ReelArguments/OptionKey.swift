/// A typed handle on an option that takes a value: its declaration and how its text becomes a
/// `Value`.
///
/// Declare a key next to the code that reads it, put its `spec` in the command's options, and
/// read it with `ParsedArguments.value(_:)`; reading a key the command does not declare throws
/// `ArgumentError.undeclaredOption` instead of quietly giving nil.
public struct OptionKey<Value>: Sendable {
    /// The declaration that goes into a command's options.
    public let spec: OptionSpec
    /// Turns the text given for the option into a value; receives the text and the option's
    /// display name (e.g. `--bitrate`) for messages.
    private let convert: @Sendable (String, String) throws(ArgumentError) -> Value

    /// Creates a key from a declaration and a conversion such as `ValueParsers.bitrate`.
    public init(
        _ spec: OptionSpec,
        convert: @escaping @Sendable (_ text: String, _ option: String) throws(ArgumentError) -> Value
    ) {
        self.spec = spec
        self.convert = convert
    }

    /// Declares an option whose text `parse` converts, such as `--bitrate RATE` with
    /// `ValueParsers.bitrate`.
    public init(
        _ name: String,
        short: Character? = nil,
        valueName: String,
        help: String,
        repeatable: Bool = false,
        allowedValues: [String] = [],
        parse: @escaping @Sendable (_ text: String, _ option: String) throws(ArgumentError) -> Value
    ) {
        self.init(
            .value(name, short: short, valueName: valueName, help: help, repeatable: repeatable,
                   allowedValues: allowedValues),
            convert: parse)
    }

    /// The long name without dashes, e.g. `"bitrate"`.
    public var name: String { spec.name }

    /// The canonical spelling used in messages, e.g. `--bitrate`.
    public var displayName: String { spec.displayName }

    /// The same key declared with other help text, value name or allowed values: for a group
    /// whose wording depends on the command (what `-o` names), or values known only at run time
    /// (the preset names).
    public func declared(
        valueName: String? = nil, help: String? = nil, allowedValues: [String]? = nil
    ) -> OptionKey {
        var spec = self.spec
        if let valueName { spec.valueName = valueName }
        if let help { spec.help = help }
        if let allowedValues { spec.allowedValues = allowedValues }
        return OptionKey(spec, convert: convert)
    }

    /// `text` converted to a value, or the conversion's error naming this option.
    public func converted(_ text: String) throws(ArgumentError) -> Value {
        try convert(text, spec.displayName)
    }
}

extension OptionKey where Value == String {
    /// Declares an option whose value is used as typed, such as `--output FILE`.
    public init(
        _ name: String,
        short: Character? = nil,
        valueName: String,
        help: String,
        repeatable: Bool = false,
        allowedValues: [String] = []
    ) {
        self.init(
            name, short: short, valueName: valueName, help: help, repeatable: repeatable,
            allowedValues: allowedValues, parse: { text, _ in text })
    }
}

extension OptionKey
where Value: RawRepresentable & CaseIterable & SendableMetatype, Value.RawValue == String {
    /// Declares an option whose value is one of an enumeration's cases, such as
    /// `--codec h264|hevc`; the allowed values, in help and checked by the parser, are the
    /// raw values of `allCases`.
    public init(
        _ name: String,
        short: Character? = nil,
        valueName: String,
        help: String,
        repeatable: Bool = false
    ) {
        let allowed = Value.allCases.map(\.rawValue)
        self.init(
            name, short: short, valueName: valueName, help: help, repeatable: repeatable,
            allowedValues: allowed,
            parse: { text, option throws(ArgumentError) in
                guard let value = Value(rawValue: text) else {
                    throw .invalidChoice(
                        option: option, value: text, allowedValues: allowed,
                        suggestion: Suggestions.closest(to: text, among: allowed))
                }
                return value
            })
    }
}

/// A typed handle on a flag such as `--overwrite`: its declaration, read with
/// `ParsedArguments.isSet(_:)` or `count(_:)`.
public struct FlagKey: Sendable, Hashable {
    /// The declaration that goes into a command's options.
    public private(set) var spec: OptionSpec

    /// Declares a flag.
    public init(_ name: String, short: Character? = nil, help: String, repeatable: Bool = false) {
        spec = .flag(name, short: short, help: help, repeatable: repeatable)
    }

    /// The long name without dashes, e.g. `"overwrite"`.
    public var name: String { spec.name }

    /// The canonical spelling used in messages, e.g. `--overwrite`.
    public var displayName: String { spec.displayName }

    /// The same flag declared with other help text, for a group whose wording depends on the
    /// command.
    public func declared(help: String) -> FlagKey {
        var key = self
        key.spec.help = help
        return key
    }
}
