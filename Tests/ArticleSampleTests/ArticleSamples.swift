// The code samples of the Spanish article on MediaIntelligence (../shared/seeds/, "Media
// Intelligence en iOS 27"), as printed there, with only `import MediaIntelligence` changed to
// `import ReelKit`. They must compile and run against ReelKit on Linux; ArticleSampleTests.swift
// runs them.

import Foundation
import ReelKit

@available(iOS 27.0, *)
func makeConferenceAnalyzer() throws -> FaceGroupAnalyzer {
    let directory = URL.applicationSupportDirectory
        .appending(path: "ConferenceFaceIndex", directoryHint: .isDirectory)

    try FileManager.default.createDirectory(
        at: directory,
        withIntermediateDirectories: true
    )

    return try FaceGroupAnalyzer(workingDirectory: directory)
}

import Foundation
import ReelKit

struct SessionPhoto {
    let recordID: String
    let fileURL: URL
}

@available(iOS 27.0, *)
func makeAssets(from photos: [SessionPhoto]) -> [MediaIntelligenceImageAsset] {
    photos.map { photo in
        MediaIntelligenceImageAsset(
            id: MediaIntelligenceImageAsset.ID(photo.recordID),
            kind: .url(photo.fileURL)
        )
    }
}

@available(iOS 27.0, *)
func detectFaces(
    in assets: [MediaIntelligenceImageAsset],
    using analyzer: FaceGroupAnalyzer
) async throws -> Int {
    let results = try await analyzer.insertOrUpdateAssets(assets)
    var faceCount = 0

    for try await (_, faces) in results {
        try Task.checkCancellation()
        faceCount += faces.count
    }

    return faceCount
}

@available(iOS 27.0, *)
func updateGroupsIfNeeded(_ analyzer: FaceGroupAnalyzer) async throws {
    if await analyzer.state == .stale {
        try await analyzer.update()
    }
}

import ReelKit

@available(iOS 27.0, *)
func analyzeTrainingVideo(at url: URL) async throws {
    let video = MediaIntelligenceVideoAsset(url: url)

    let (keyFrames, highlights) = try await VideoAnalyzer.shared.analyze(
        video,
        for: KeyFrameAnalysisRequest(),
        HighlightAnalysisRequest()
    )

    // La aplicación decide cómo generar miniaturas,
    // reproducir los intervalos y presentar los resultados.
    print(keyFrames, highlights)
}

import Observation

@MainActor
@Observable
final class MediaImportModel {
    private(set) var importedFaces = 0
    private(set) var isAnalyzing = false

    func importAssets(_ assets: [MediaIntelligenceImageAsset]) async throws {
        isAnalyzing = true
        defer { isAnalyzing = false }

        importedFaces = try await runAnalysis(assets)
    }

    @concurrent
    private func runAnalysis(
        _ assets: [MediaIntelligenceImageAsset]
    ) async throws -> Int {
        let analyzer = try makeConferenceAnalyzer()
        let count = try await detectFaces(in: assets, using: analyzer)
        try await updateGroupsIfNeeded(analyzer)
        return count
    }
}
