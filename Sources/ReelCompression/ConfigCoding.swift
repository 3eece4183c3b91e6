import Foundation
import ReelSupport

// `CompressionConfig` is Codable so apps can save and restore settings. Two parts hold code, not
// values, and cannot be saved: a planned trim (a highlight reel's `TrimPlanner`) and a target
// quality's `ShotPlanner`. Encoding a config with either throws `EncodingError.invalidValue`
// saying so; set them again after decoding.

extension TrimSelection: Codable {
    private enum CodingKeys: String, CodingKey { case kind, ranges }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "whole": self = .whole
        case "ranges": self = .ranges(try container.decode([TimeRange].self, forKey: .ranges))
        case let kind:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "no trim kind '\(kind)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .whole:
            try container.encode("whole", forKey: .kind)
        case .ranges(let ranges):
            try container.encode("ranges", forKey: .kind)
            try container.encode(ranges, forKey: .ranges)
        case .planned:
            throw EncodingError.invalidValue(self, .init(
                codingPath: encoder.codingPath,
                debugDescription: "a planned trim (a highlight reel) runs code and cannot be saved; save its options and set it again"))
        }
    }
}

extension TargetQuality: Codable {
    private enum CodingKeys: String, CodingKey { case metric, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(Metric.self, forKey: .metric), try container.decode(Double.self, forKey: .value))
    }

    public func encode(to encoder: any Encoder) throws {
        if shots != nil {
            throw EncodingError.invalidValue(self, .init(
                codingPath: encoder.codingPath,
                debugDescription: "a target quality's shot planner runs code and cannot be saved; set it again after decoding"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metric, forKey: .metric)
        try container.encode(value, forKey: .value)
    }
}

extension LoudnessTarget: Codable {
    private enum CodingKeys: String, CodingKey { case integrated, truePeak }

    /// Reads `{"integrated": -14, "truePeak": -1}`; the true peak may be left out (-1 dBTP).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(integrated: try container.decode(Double.self, forKey: .integrated),
                  truePeak: try container.decodeIfPresent(Double.self, forKey: .truePeak) ?? -1)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(integrated, forKey: .integrated)
        try container.encode(truePeak, forKey: .truePeak)
    }
}
