import ReelArguments

/// The subcommands of `reel faces`: each declares only the options and arguments it uses.
enum FacesAction: String, CaseIterable, Sendable {
    case add, update, people, identify, remove, purge

    /// The keys the subcommands share or own.
    enum Keys {
        static let index = OptionKey<String>("index", valueName: "DIR", help: "The index directory (created when missing).")
        static let models = OptionKey<String>("models", valueName: "DIR", help: "Where the face models are (searched first).")
        static let update = FlagKey("update", help: "Regroup people when done.")
        static let sheet = OptionKey<String>(
            "sheet", valueName: "FILE", help: "Write a sheet of face crops, a row per person (.jpg or .png).")
    }

    /// Whether the subcommand finds faces, and so needs the models (`--models`).
    var findsFaces: Bool { self == .add || self == .identify }

    /// `--json` and `--quiet`: the summary (and, for `add`, the progress) they silence.
    var console: ConsoleOptions.Shape {
        ConsoleOptions.Shape(
            json: "Print one JSON object instead of text.",
            quiet: self == .add ? "No progress and no summary; errors are still shown." : "No summary; errors are still shown.")
    }

    /// The files the subcommand takes, if any.
    var files: PositionalSpec? {
        switch self {
        case .add: PositionalSpec(name: "PATH", help: "Photos and videos, or directories of them.", isVariadic: true)
        case .identify: PositionalSpec(name: "IMAGE", help: "Photos, or directories of them.", isVariadic: true)
        case .remove: PositionalSpec(name: "PATH", help: "Files added before, or their directories.", isVariadic: true)
        case .update, .people, .purge: nil
        }
    }

    /// The subcommand's declaration.
    var spec: CommandSpec {
        var options = [Keys.index.spec]
        if findsFaces { options.append(Keys.models.spec) }
        if self == .add { options.append(Keys.update.spec) }
        if self == .people { options.append(Keys.sheet.spec) }
        return CommandSpec(
            name: rawValue, abstract: abstract, discussion: discussion, examples: examples,
            options: options + ConsoleOptions.specs(console), positionals: files.map { [$0] } ?? [])
    }

    private var abstract: String {
        switch self {
        case .add: "Find the faces of photos and videos and store them."
        case .update: "Regroup every stored face into people."
        case .people: "List the people, most photographed first."
        case .identify: "Match the faces of photos against the people, storing nothing."
        case .remove: "Forget files and their faces."
        case .purge: "Delete the index."
        }
    }

    private var discussion: String {
        switch self {
        case .add:
            """
            Photos (.jpg .jpeg .png .bmp .tif .tiff .webp) and videos (sampled at their \
            keyframes, about one every 2 s), or those directly in a directory. A file's path is \
            its id, so adding it again replaces its faces. A file that cannot be read is \
            reported and the others go on; the exit status is then 1. The new faces join \
            people at the next 'reel faces update' (or with --update).
            """
        case .update: "A person keeps their entity id as photos are added."
        case .people: "Warns when the groups are stale: run 'reel faces update' first."
        case .identify: "A face matches the person of the closest stored face within 0.6, else it is unknown."
        case .remove: "Run 'reel faces update' afterwards to regroup."
        case .purge: "Removes the index files, and nothing else, from the index directory."
        }
    }

    private var examples: [String] {
        switch self {
        case .add: ["reel faces add ~/Pictures/party --index faces/ --update"]
        case .update: ["reel faces update --index faces/"]
        case .people: ["reel faces people --index faces/ --sheet people.jpg"]
        case .identify: ["reel faces identify newcomer.jpg --index faces/ --json"]
        case .remove: ["reel faces remove ~/Pictures/party/blurry.jpg --index faces/"]
        case .purge: ["reel faces purge --index faces/"]
        }
    }
}
