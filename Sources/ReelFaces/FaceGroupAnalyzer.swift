import Foundation
import ReelMedia
import ReelSupport

/// Finds faces in photos and videos, keeps them in a persistent index in its working directory,
/// and groups them into people; modeled on MediaIntelligence's `FaceGroupAnalyzer`.
///
/// Detection and embeddings are dlib's (HOG detector, 5-point alignment, 128-D ResNet), on the
/// CPU; the index is one SQLite file. Inserting, updating or deleting makes the groups `.stale`;
/// `update()` regroups them, keeping each person's entity id.
public actor FaceGroupAnalyzer {
    /// How faces are found.
    public struct Options: Sendable {
        /// Where the models are (searched first; see `FaceModels.locate`).
        public var modelsDirectory: URL?
        /// The longer side, in pixels, pictures are scaled down to before detection (a smaller
        /// video's pictures up to, at most 4x).
        public var detectionSize = 1024
        /// How many times the picture is doubled for the detector: each finds faces half as big
        /// (about 40 px in a 1024 px picture at 1).
        public var upsample = 1
        /// `upsample` for videos' samples: 0 by default, so faces of about 80 px in a 1024 px
        /// picture (a thirteenth of its width) and up. Videos have many more pictures than a
        /// photo: at 1 a 10-minute film took 251 s to add instead of about 60.
        public var videoUpsample = 0
        /// Detections scoring below this are dropped (false detections score about 0.0-0.15,
        /// faces 0.3 and up).
        public var minimumScore = 0.25
        /// Videos: most seconds between two sampled pictures of one shot (a picture is also
        /// sampled just after each cut), so a face on screen this long is seen.
        public var videoSampleInterval = 0.75
        /// Videos: a face seen again where it was in the same shot keeps its descriptor, without
        /// describing it again, for this many seconds (the detector still finds it in every
        /// sample, so its times are all kept).
        public var videoRedescribeInterval = 3.0

        /// The defaults.
        public init() {}

        /// How many times a photo whose longer side is `side` pixels is doubled for the
        /// detector: at least `configured`, and more for a small one while the result stays
        /// within `detectionSize`: a 256 px photo is searched at 1024 px. (A video's pictures are
        /// enlarged to `detectionSize`, at most 4x, when sampled, and searched as they are.)
        func upsample(_ configured: Int, forSide side: Int) -> Int {
            var doublings = 0
            // Three doublings at most: a thumbnail is not worth a detector pass at 8x.
            while side > 0, doublings < 3, side << (doublings + 1) <= detectionSize { doublings += 1 }
            return max(configured, doublings)
        }
    }

    /// The directory the analyzer owns.
    public nonisolated let workingDirectory: URL
    /// How faces are found.
    public nonisolated let options: Options
    let store: FaceStore
    private let engine: SharedFaceEngine
    /// Counts changes, so an `update()` that overlapped an insert leaves the groups stale.
    private var changes = 0

    /// Opens the index in `workingDirectory` (created when missing), or creates it. A later
    /// process opening the same directory sees everything stored before.
    public init(workingDirectory: URL, options: Options = Options()) throws(ReelError) {
        do {
            try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
        } catch {
            throw .faceIndexFailed(workingDirectory, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        self.workingDirectory = workingDirectory
        self.options = options
        store = try FaceStore(directory: workingDirectory)
        engine = SharedFaceEngine(models: options.modelsDirectory)
    }

    /// Whether the groups are current.
    public var state: FaceGroupState {
        (try? store.state()) ?? .stale
    }

    // MARK: Adding

    /// Finds the faces of each photo and stores them, replacing what an earlier insert of the
    /// same id stored: a face that is the same as one stored before (same place in the photo,
    /// or the nearest descriptor) keeps that face's entity id, so `update()` keeps its person's. Results arrive as each photo finishes; a photo that cannot be read is
    /// skipped and reported in a `FaceBatchError` thrown at the end. Cancelling the consuming
    /// task stops the work; photos already delivered stay stored.
    public func insertOrUpdateAssets(
        _ assets: [MediaIntelligenceImageAsset]
    ) async throws(ReelError) -> AsyncThrowingStream<(MediaIntelligenceAssetID, [Face]), any Error> {
        try start(assets.map { .image($0.id, $0.kind.url) })
    }

    /// Decodes each video through its shots, sampling a picture just after each cut and at
    /// least every `videoSampleInterval` seconds, and finds and stores their faces with the
    /// times they were seen, as for photos.
    public func insertOrUpdateAssets(
        _ assets: [MediaIntelligenceVideoAsset]
    ) async throws(ReelError) -> AsyncThrowingStream<(MediaIntelligenceAssetID, [Face]), any Error> {
        try start(assets.map { .video($0.id, $0.kind.url) })
    }

    private func start(_ sources: [FaceSource]) throws(ReelError) -> AsyncThrowingStream<(MediaIntelligenceAssetID, [Face]), any Error> {
        _ = try FaceModels.locate(explicit: options.modelsDirectory)
        let (stream, continuation) = AsyncThrowingStream<(MediaIntelligenceAssetID, [Face]), any Error>.makeStream()
        let task = Task { await self.insert(sources, into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func insert(
        _ sources: [FaceSource], into continuation: AsyncThrowingStream<(MediaIntelligenceAssetID, [Face]), any Error>.Continuation
    ) async {
        let finder = FaceFinder(engine: engine, options: options)
        var failures: [(assetID: MediaIntelligenceAssetID, error: ReelError)] = []
        for source in sources {
            if Task.isCancelled { break }
            do throws(ReelError) {
                let flag = CancellationFlag()
                var found = try await BlockingWork.run(flag: flag) { () throws(ReelError) in
                    try finder.faces(in: source, shouldCancel: { flag.isRaised })
                }
                if Task.isCancelled { break }
                // Faces that were stored for this asset before keep their people's ids.
                let previous = try store.allFaces(where: "WHERE asset_id = ?", [.text(source.id.rawValue)])
                for (index, entity) in FaceGrouping.carriedEntities(new: found, old: previous).enumerated() {
                    found[index].face.entityID = entity
                }
                try store.replace(assetID: source.id, kind: source.kind, path: source.url.path, faces: found)
                changes += 1
                continuation.yield((source.id, found.map(\.face)))
            } catch .cancelled {
                break
            } catch {
                failures.append((source.id, error))
            }
        }
        if Task.isCancelled {
            continuation.finish(throwing: ReelError.cancelled)
        } else if failures.isEmpty {
            continuation.finish()
        } else {
            continuation.finish(throwing: FaceBatchError(failures: failures))
        }
    }

    // MARK: Grouping

    /// Regroups every stored face into people. A person keeps their entity id when most of
    /// their faces had it; new people get new ids. The state is `.updating` meanwhile and
    /// `.ready` after (`.stale` if assets changed while it ran). A process killed during an
    /// update leaves the faces intact and the state `.stale` when reopened.
    public func update() async throws(ReelError) {
        let before = changes
        let stored = try store.allFaces()
        try store.setState(.updating)
        let descriptors = stored.map(\.descriptor)
        let groups = try await BlockingWork.run(flag: CancellationFlag()) { () throws(ReelError) in
            FaceGrouping.clusters(descriptors)
        }
        let ids = FaceGrouping.entities(for: groups, previous: stored.map(\.face.entityID))
        var mapping: [Face.ID: FaceEntityID] = [:]
        for (group, members) in groups.enumerated() {
            for member in members { mapping[stored[member].face.id] = ids[group] }
        }
        try store.storeGroups(mapping)
        if changes != before { try store.setState(.stale) }
    }

    // MARK: Queries

    /// Every stored face, by person (faces not grouped yet are left out).
    public var allFacesByEntityID: [FaceEntityID: [Face]] {
        get throws(ReelError) {
            Dictionary(grouping: try store.allFaces(where: "WHERE entity_id IS NOT NULL").map(\.face)) { face in
                face.entityID ?? FaceEntityID("")
            }
        }
    }

    /// The faces found in one asset, best first.
    public func fetchFaces(for assetID: MediaIntelligenceAssetID) throws(ReelError) -> [Face] {
        try store.allFaces(where: "WHERE asset_id = ?", [.text(assetID.rawValue)]).map(\.face)
    }

    /// The faces of one person.
    public func fetchFaces(for entityID: FaceEntityID) throws(ReelError) -> [Face] {
        try store.allFaces(where: "WHERE entity_id = ?", [.text(entityID.rawValue)]).map(\.face)
    }

    /// The assets a person appears in, sorted.
    public func fetchAssetIDs(for entityID: FaceEntityID) throws(ReelError) -> [MediaIntelligenceAssetID] {
        Array(Set(try fetchFaces(for: entityID).map(\.assetID))).sorted()
    }

    /// Every stored asset's id, sorted.
    public func fetchAllAssetIDs() throws(ReelError) -> [MediaIntelligenceAssetID] {
        try store.assetIDs()
    }

    /// Where a person is seen in each video: the sampled times merged into ranges (a sample
    /// stands for `videoSampleInterval` seconds; samples closer than two intervals join).
    public func appearances(of entityID: FaceEntityID) throws(ReelError) -> [MediaIntelligenceAssetID: [TimeRange]] {
        let interval = MediaTime(seconds: options.videoSampleInterval, timescale: 1000)
        var result: [MediaIntelligenceAssetID: [TimeRange]] = [:]
        for (asset, faces) in Dictionary(grouping: try fetchFaces(for: entityID).filter { $0.time != nil }, by: \.assetID) {
            var ranges: [TimeRange] = []
            for time in faces.compactMap(\.time).sorted() {
                if let last = ranges.last, time <= last.end + interval {
                    ranges[ranges.count - 1].end = max(last.end, time + interval)
                } else {
                    ranges.append(TimeRange(start: time, end: time + interval))
                }
            }
            result[asset] = ranges
        }
        return result
    }

    /// The faces of new photos matched against the current groups, without storing anything:
    /// each face gets the entity id of the closest stored face within the match distance, or nil.
    /// Most accurate when the state is `.ready`.
    public func identifyFaces(in assets: [MediaIntelligenceImageAsset]) async throws(ReelError) -> [(MediaIntelligenceAssetID, [Face])] {
        _ = try FaceModels.locate(explicit: options.modelsDirectory)
        let known = try store.allFaces(where: "WHERE entity_id IS NOT NULL")
        let finder = FaceFinder(engine: engine, options: options)
        var results: [(MediaIntelligenceAssetID, [Face])] = []
        for asset in assets {
            let flag = CancellationFlag()
            let source = FaceSource.image(asset.id, asset.kind.url)
            let found = try await BlockingWork.run(flag: flag) { () throws(ReelError) in
                try finder.faces(in: source, shouldCancel: { flag.isRaised })
            }
            results.append((asset.id, found.map { candidate in
                var face = candidate.face
                let nearest = known.min { FaceGrouping.distance($0.descriptor, candidate.descriptor)
                    < FaceGrouping.distance($1.descriptor, candidate.descriptor) }
                if let nearest, FaceGrouping.distance(nearest.descriptor, candidate.descriptor) < FaceGrouping.matchDistance {
                    face.entityID = nearest.face.entityID
                }
                return face
            }))
        }
        return results
    }

    // MARK: Deleting

    /// Removes these assets and their faces.
    public func deleteAssets(_ assetIDs: [MediaIntelligenceAssetID]) throws(ReelError) {
        if try store.delete(assetIDs) > 0 { changes += 1 }
    }

    /// Removes every asset and face, keeping the (empty) index.
    public func deleteAllAssets() throws(ReelError) {
        try store.deleteAll()
        changes += 1
    }

    /// Whether `workingDirectory` holds an index a `FaceGroupAnalyzer` wrote. Opening an analyzer
    /// creates one; a command that only reads (a person's reel, listing people) checks first, so
    /// a mistyped path is an error rather than a new, empty index.
    public static func indexExists(in workingDirectory: URL) -> Bool {
        FileManager.default.fileExists(atPath: workingDirectory.appendingPathComponent(FaceStore.fileName).path)
    }

    /// Removes everything a `FaceGroupAnalyzer` wrote in `workingDirectory` (the index and
    /// SQLite's companion files), and nothing else. Do not use an analyzer of that directory
    /// afterwards.
    public static func purge(workingDirectory: URL) throws(ReelError) {
        for suffix in FaceStore.companionSuffixes {
            let file = workingDirectory.appendingPathComponent(FaceStore.fileName + suffix)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw .faceIndexFailed(file, reason: "cannot remove: \(error.localizedDescription)")
            }
        }
    }
}

/// Assets of a batch that could not be analyzed; the others were stored.
public struct FaceBatchError: Error, Sendable, CustomStringConvertible {
    /// Each failed asset and why.
    public var failures: [(assetID: MediaIntelligenceAssetID, error: ReelError)]

    public var description: String {
        failures.map { "\($0.assetID): \($0.error.description)" }.joined(separator: "; ")
    }
}
