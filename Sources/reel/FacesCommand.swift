import Foundation
import ReelArguments
import ReelKit

/// `reel faces SUBCOMMAND`: a face index on disk, as a FaceGroupAnalyzer keeps it.
struct FacesCommand: ReelCommand {
    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "faces",
            abstract: "Find faces in photos and videos, group them into people, and keep the index on disk.",
            discussion: """
                add finds faces and stores them, update groups them into people, people lists \
                them, identify matches new photos against them, remove forgets files, purge \
                deletes the index. The index lives in --index DIR (default: the XDG data \
                directory's reel/faces). Faces are found with dlib's models ('make models' \
                fetches them; REEL_FACE_MODELS or --models points elsewhere). Entity ids are \
                technical: keep names for them in your own records.
                """,
            examples: [
                "reel faces add ~/Pictures/party --index faces/ --update",
                "reel faces people --index faces/ --sheet people.jpg",
                "reel faces identify newcomer.jpg --index faces/ --json",
                "reel faces remove ~/Pictures/party/blurry.jpg --index faces/",
            ],
            subcommands: FacesAction.allCases.map(\.spec))
    }

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "bmp", "tif", "tiff", "webp"]

    /// The subcommand.
    let action: FacesAction
    /// The files it was given (add, identify, remove).
    let paths: [String]
    /// The index directory: `--index`, else the XDG data directory's `reel/faces`.
    let index: URL
    /// ` --index PATH` as given, for messages; empty for the default index.
    let indexOption: String
    /// `--models` (add, identify).
    let models: URL?
    /// `--update` (add).
    let update: Bool
    /// `--sheet` (people).
    let sheet: String?
    let console: ConsoleOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        guard let name = arguments.commandPath.dropFirst().first, let action = FacesAction(rawValue: name) else {
            throw CommandFailure(message: "internal error: 'faces' ran without a subcommand", status: ExitStatus.internalError)
        }
        self.action = action
        paths = action.files.map { arguments.positionalValues($0.name) } ?? []
        do throws(ArgumentError) {
            let given = try arguments.value(FacesAction.Keys.index)
            index = given.map { URL(fileURLWithPath: $0).standardizedFileURL }
                ?? URL.applicationSupportDirectory.appendingPathComponent("reel/faces", isDirectory: true)
            indexOption = given.map { " --index \($0)" } ?? ""
            models = action.findsFaces ? try arguments.value(FacesAction.Keys.models).map { URL(fileURLWithPath: $0) } : nil
            update = action == .add ? try arguments.isSet(FacesAction.Keys.update) : false
            sheet = action == .people ? try arguments.value(FacesAction.Keys.sheet) : nil
            console = try ConsoleOptions(arguments, action.console)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs the subcommand; returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        // Opening the index creates it: only adding may; purge never opens it.
        func analyzer() throws(ReelError) -> FaceGroupAnalyzer {
            guard action == .add || FaceGroupAnalyzer.indexExists(in: index) else {
                throw .faceIndexFailed(index, reason: "no face index here yet ('reel faces add FILE\(indexOption)' makes one)")
            }
            var options = FaceGroupAnalyzer.Options()
            options.modelsDirectory = models
            return try FaceGroupAnalyzer(workingDirectory: index, options: options)
        }
        do throws(ReelError) {
            switch action {
            case .add: return try await add(paths, to: try analyzer())
            case .update: return try await update(try analyzer())
            case .people: return try await people(try analyzer())
            case .identify: return try await identify(paths, with: try analyzer())
            case .remove:
                let ids = files(paths).map { MediaIntelligenceAssetID($0.url.path) }
                try await analyzer().deleteAssets(ids)
                report(["action": .string("remove"), "removed": .array(ids.map { .string($0.rawValue) })],
                       text: "removed \(ids.count) file\(ids.count == 1 ? "" : "s"); run 'reel faces update' to regroup")
                return ExitStatus.success
            case .purge:
                try FaceGroupAnalyzer.purge(workingDirectory: index)
                report(["action": .string("purge"), "index": .string(index.path)], text: "purged \(index.path)")
                return ExitStatus.success
            }
        } catch .cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); what finished is kept")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(error.description)
            return ExitStatus.failure
        }
    }

    private func add(_ paths: [String], to analyzer: FaceGroupAnalyzer) async throws(ReelError) -> Int32 {
        let items = files(paths)
        let images = items.filter { Self.imageExtensions.contains($0.url.pathExtension.lowercased()) }
        let videos = items.filter { !Self.imageExtensions.contains($0.url.pathExtension.lowercased()) }
        let showProgress = !console.quiet && !console.json
        var added: [(String, [Face])] = []
        var failed: [(String, String)] = []
        let names = Dictionary(items.map { ($0.url.path, $0.display) }, uniquingKeysWith: { first, _ in first })
        func consume(_ stream: AsyncThrowingStream<(MediaIntelligenceAssetID, [Face]), any Error>) async throws(ReelError) {
            do {
                for try await (id, faces) in stream {
                    let name = names[id.rawValue] ?? id.rawValue
                    added.append((name, faces))
                    if showProgress { Console.printErr("[\(added.count + failed.count)/\(items.count)] \(name): \(faces.count) face\(faces.count == 1 ? "" : "s")\n") }
                }
            } catch let batch as FaceBatchError {
                for failure in batch.failures {
                    let name = names[failure.assetID.rawValue] ?? failure.assetID.rawValue
                    failed.append((name, failure.error.cause))
                    Console.error("\(name): \(failure.error.cause)")
                }
            } catch let error as ReelError {
                throw error
            } catch {
                throw .cancelled
            }
        }
        if !images.isEmpty {
            try await consume(try await analyzer.insertOrUpdateAssets(images.map {
                MediaIntelligenceImageAsset(id: .init($0.url.path), kind: .url($0.url))
            }))
        }
        if !videos.isEmpty {
            try await consume(try await analyzer.insertOrUpdateAssets(videos.map {
                MediaIntelligenceVideoAsset(id: .init($0.url.path), kind: .url($0.url))
            }))
        }
        if update {
            try await analyzer.update()
            // Report the faces with the people they were grouped into.
            var grouped: [(String, [Face])] = []
            for (name, _) in added {
                let id = names.first { $0.value == name }?.key ?? name
                grouped.append((name, try await analyzer.fetchFaces(for: MediaIntelligenceAssetID(id))))
            }
            added = grouped
        }
        let state = await analyzer.state
        report([
            ("action", .string("add")),
            ("index", .string(index.path)),
            ("added", .array(added.map { name, faces in
                .object([("file", .string(name)), ("faces", .array(faces.map(Self.json)))])
            })),
            ("failed", .array(failed.map { .object([("file", .string($0.0)), ("error", .string($0.1))]) })),
            ("state", .string(state.rawValue)),
        ], text: "added \(added.count) file\(added.count == 1 ? "" : "s") with \(added.map(\.1.count).reduce(0, +)) faces"
            + (failed.isEmpty ? "" : "; \(failed.count) failed")
            + (state == .stale ? "; run 'reel faces update' to group them into people" : ""))
        return failed.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    private func update(_ analyzer: FaceGroupAnalyzer) async throws(ReelError) -> Int32 {
        try await analyzer.update()
        let people = try await analyzer.allFacesByEntityID
        let faces = people.values.map(\.count).reduce(0, +)
        report([("action", .string("update")), ("people", JSONValue(people.count)), ("faces", JSONValue(faces))],
               text: "\(people.count) people from \(faces) faces")
        return ExitStatus.success
    }

    private func people(_ analyzer: FaceGroupAnalyzer) async throws(ReelError) -> Int32 {
        let state = await analyzer.state
        if state != .ready && !console.json {
            Console.error("the groups are \(state.rawValue): run 'reel faces update' first for current people")
        }
        let people = try await analyzer.allFacesByEntityID.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key
        }
        if let sheet {
            try await analyzer.writeFaceSheet(to: URL(fileURLWithPath: sheet).standardizedFileURL)
        }
        var lines: [String] = []
        var entries: [JSONValue] = []
        for (entity, faces) in people {
            let assets = Array(Set(faces.map(\.assetID.rawValue))).sorted()
            lines.append("\(entity)  \(faces.count) face\(faces.count == 1 ? "" : "s") in \(assets.count) file\(assets.count == 1 ? "" : "s"): "
                + assets.prefix(3).map { ($0 as NSString).lastPathComponent }.joined(separator: ", ") + (assets.count > 3 ? ", ..." : ""))
            entries.append(.object([("entity", .string(entity.rawValue)), ("faces", JSONValue(faces.count)),
                                    ("files", .array(assets.map { .string($0) }))]))
        }
        report([("action", .string("people")), ("state", .string(state.rawValue)), ("people", .array(entries)),
                ("sheet", JSONValue(sheet))],
               text: lines.isEmpty ? "no people yet" : lines.joined(separator: "\n"))
        return ExitStatus.success
    }

    private func identify(_ paths: [String], with analyzer: FaceGroupAnalyzer) async throws(ReelError) -> Int32 {
        let items = files(paths)
        let results = try await analyzer.identifyFaces(in: items.map { MediaIntelligenceImageAsset(id: .init($0.url.path), kind: .url($0.url)) })
        var lines: [String] = []
        var entries: [JSONValue] = []
        for (item, (_, faces)) in zip(items, results) {
            let people = faces.map { $0.entityID?.rawValue ?? "unknown" }
            lines.append("\(item.display): " + (people.isEmpty ? "no face" : people.joined(separator: ", ")))
            entries.append(.object([("file", .string(item.display)), ("faces", .array(faces.map(Self.json)))]))
        }
        report([("action", .string("identify")), ("results", .array(entries))], text: lines.joined(separator: "\n"))
        return ExitStatus.success
    }

    /// Files as given; directories as their photos and videos (not recursively), sorted.
    private func files(_ paths: [String]) -> [InputItem] {
        var items: [InputItem] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names.sorted() where !name.hasPrefix(".") {
                    let ext = (name as NSString).pathExtension.lowercased()
                    guard Self.imageExtensions.contains(ext) || InputCollection.videoExtensions.contains(ext) else { continue }
                    items.append(InputItem(display: (path as NSString).appendingPathComponent(name)))
                }
            } else {
                items.append(InputItem(display: path))
            }
        }
        return items
    }

    private static func json(_ face: Face) -> JSONValue {
        .object([
            ("id", .string(face.id.rawValue)),
            ("entity", JSONValue(face.entityID?.rawValue)),
            ("score", JSONValue(face.score)),
            ("bounds", .object([("x", JSONValue(face.bounds.minX)), ("y", JSONValue(face.bounds.minY)),
                                ("width", JSONValue(face.bounds.width)), ("height", JSONValue(face.bounds.height))])),
            ("time", JSONValue(face.time?.seconds)),
        ])
    }

    private func report(_ members: [(String, JSONValue)], text: String) {
        if console.json {
            Console.printOut(JSONValue.object(members).rendered())
        } else if !console.quiet {
            Console.printOut(text)
        }
    }

    private func report(_ members: [String: JSONValue], text: String) {
        report(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, text: text)
    }
}
