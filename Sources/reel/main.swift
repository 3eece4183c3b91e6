import Foundation
import ReelKit

let arguments = Array(CommandLine.arguments.dropFirst())
let source = URL(fileURLWithPath: arguments[1])
var config = (VideoQuality.allCases.first { $0.presetName == (arguments.count > 2 ? arguments[2] : "medium") } ?? .mediumQuality).defaultConfig
config.outputURL = URL(fileURLWithPath: "/tmp/t/out.mp4")
let result = try await VideoCompressor().compressVideo(source, config: config) { p in
    FileHandle.standardError.write(Data(String(format: "%.2f ", p).utf8))
}
let data = try JSONEncoder().encode(result.analytics)
print(String(decoding: data, as: UTF8.self))
