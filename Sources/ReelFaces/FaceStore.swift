import Foundation
import ReelMedia
import ReelSupport

/// A stored face with its descriptor, as grouping needs it.
struct StoredFace: Sendable {
    var face: Face
    var descriptor: [Float]
    /// Its position within its asset (faces of an asset are numbered best first).
    var ordinal: Int
}

/// The analyzer's persistent index: one SQLite file in its working directory. Every change is
/// one transaction, so a crash leaves the previous state; the schema version is stored so a later
/// version can migrate, or refuse clearly.
final class FaceStore {
    /// The database file's name; purge removes it and SQLite's companions, nothing else.
    static let fileName = "reel-faces.sqlite"
    /// The files SQLite may write beside it.
    static let companionSuffixes = ["", "-journal", "-wal", "-shm"]
    static let schemaVersion = 1

    private let database: SQLiteDatabase

    init(directory: URL) throws(ReelError) {
        let url = directory.appendingPathComponent(Self.fileName)
        database = try SQLiteDatabase(url: url)
        try database.execute("PRAGMA foreign_keys = ON")
        try database.transaction { () throws(ReelError) in
            try database.execute("""
                CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS assets (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, path TEXT NOT NULL, inserted REAL NOT NULL);
                CREATE TABLE IF NOT EXISTS faces (
                    id TEXT PRIMARY KEY,
                    asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    x REAL NOT NULL, y REAL NOT NULL, width REAL NOT NULL, height REAL NOT NULL,
                    score REAL NOT NULL,
                    time_value INTEGER, time_scale INTEGER,
                    descriptor BLOB NOT NULL,
                    entity_id TEXT);
                CREATE INDEX IF NOT EXISTS faces_by_asset ON faces(asset_id);
                CREATE INDEX IF NOT EXISTS faces_by_entity ON faces(entity_id);
                INSERT OR IGNORE INTO meta VALUES ('schema_version', '\(Self.schemaVersion)');
                INSERT OR IGNORE INTO meta VALUES ('state', 'ready');
                """)
        }
        let version = try meta("schema_version").flatMap(Int.init)
        guard version == Self.schemaVersion else {
            throw .faceIndexFailed(url, reason: "the index has schema version \(version.map(String.init) ?? "unknown"); "
                + "this ReelKit reads version \(Self.schemaVersion)")
        }
        // A process that died while grouping left 'updating': the faces are intact, the groups
        // are not current.
        if try meta("state") == FaceGroupState.updating.rawValue { try setState(.stale) }
    }

    var url: URL { database.url }

    // MARK: State

    func state() throws(ReelError) -> FaceGroupState {
        try meta("state").flatMap(FaceGroupState.init(rawValue:)) ?? .stale
    }

    func setState(_ state: FaceGroupState) throws(ReelError) {
        try database.query("UPDATE meta SET value = ? WHERE key = 'state'", [.text(state.rawValue)])
    }

    private func meta(_ key: String) throws(ReelError) -> String? {
        try database.query("SELECT value FROM meta WHERE key = ?", [.text(key)]).first?.first?.text
    }

    // MARK: Writing

    /// Replaces whatever was stored for `assetID` with `faces` (inserting the asset if new, and
    /// keeping the entity ids the faces carry) and marks the groups stale, in one transaction.
    func replace(assetID: MediaIntelligenceAssetID, kind: String, path: String, faces: [StoredFace]) throws(ReelError) {
        try database.transaction { () throws(ReelError) in
            try database.query("DELETE FROM faces WHERE asset_id = ?", [.text(assetID.rawValue)])
            try database.query("""
                INSERT INTO assets (id, kind, path, inserted) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, path = excluded.path, inserted = excluded.inserted
                """, [.text(assetID.rawValue), .text(kind), .text(path), .real(Date().timeIntervalSince1970)])
            for stored in faces {
                let face = stored.face
                let bytes = stored.descriptor.withUnsafeBytes { Array($0) }
                try database.query("""
                    INSERT INTO faces (id, asset_id, ordinal, x, y, width, height, score, time_value, time_scale, descriptor, entity_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [
                        .text(face.id.rawValue), .text(assetID.rawValue), .integer(Int64(stored.ordinal)),
                        .real(face.bounds.minX), .real(face.bounds.minY), .real(face.bounds.width), .real(face.bounds.height),
                        .real(face.score),
                        face.time.map { .integer($0.value) } ?? .null, face.time.map { .integer(Int64($0.timescale)) } ?? .null,
                        .blob(bytes), face.entityID.map { .text($0.rawValue) } ?? .null,
                    ])
            }
            try setState(.stale)
        }
    }

    /// Removes the assets (and their faces); returns how many existed.
    @discardableResult
    func delete(_ assetIDs: [MediaIntelligenceAssetID]) throws(ReelError) -> Int {
        try database.transaction { () throws(ReelError) -> Int in
            var removed = 0
            for id in assetIDs {
                let existed = try database.query("SELECT 1 FROM assets WHERE id = ?", [.text(id.rawValue)]).isEmpty == false
                try database.query("DELETE FROM faces WHERE asset_id = ?", [.text(id.rawValue)])
                try database.query("DELETE FROM assets WHERE id = ?", [.text(id.rawValue)])
                if existed { removed += 1 }
            }
            if removed > 0 { try setState(.stale) }
            return removed
        }
    }

    /// Removes every asset and face, keeping the (empty) index.
    func deleteAll() throws(ReelError) {
        try database.transaction { () throws(ReelError) in
            try database.execute("DELETE FROM faces; DELETE FROM assets;")
            try setState(.ready)
        }
    }

    /// Stores the groups: `entities[faceID]` for every face, in one transaction, and marks the
    /// groups ready.
    func storeGroups(_ entities: [Face.ID: FaceEntityID]) throws(ReelError) {
        try database.transaction { () throws(ReelError) in
            try database.execute("UPDATE faces SET entity_id = NULL")
            for (face, entity) in entities {
                try database.query("UPDATE faces SET entity_id = ? WHERE id = ?", [.text(entity.rawValue), .text(face.rawValue)])
            }
            try setState(.ready)
        }
    }

    // MARK: Reading

    /// Every stored face, with descriptors, in a fixed order (asset id, then ordinal).
    func allFaces(where condition: String = "", _ values: [SQLValue] = []) throws(ReelError) -> [StoredFace] {
        let rows = try database.query("""
            SELECT id, asset_id, ordinal, x, y, width, height, score, time_value, time_scale, descriptor, entity_id
            FROM faces \(condition) ORDER BY asset_id, ordinal
            """, values)
        return rows.map { row in
            let time: MediaTime? = row[8].integer.flatMap { value in
                row[9].integer.map { MediaTime(value: value, timescale: Int32(clamping: $0)) }
            }
            let bytes = row[10].blob ?? []
            let descriptor = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let face = Face(
                id: Face.ID(row[0].text ?? ""), assetID: MediaIntelligenceAssetID(row[1].text ?? ""),
                bounds: CGRect(x: row[3].real ?? 0, y: row[4].real ?? 0, width: row[5].real ?? 0, height: row[6].real ?? 0),
                entityID: row[11].text.map { FaceEntityID($0) }, score: row[7].real ?? 0, time: time)
            return StoredFace(face: face, descriptor: descriptor, ordinal: Int(row[2].integer ?? 0))
        }
    }

    /// Where each stored asset's file was when it was inserted.
    func assetPaths() throws(ReelError) -> [MediaIntelligenceAssetID: String] {
        var paths: [MediaIntelligenceAssetID: String] = [:]
        for row in try database.query("SELECT id, path FROM assets") {
            if let id = row[0].text, let path = row[1].text { paths[MediaIntelligenceAssetID(id)] = path }
        }
        return paths
    }

    /// The ids of every stored asset, sorted.
    func assetIDs() throws(ReelError) -> [MediaIntelligenceAssetID] {
        try database.query("SELECT id FROM assets ORDER BY id").compactMap { row in row.first?.text.map { MediaIntelligenceAssetID($0) } }
    }
}
