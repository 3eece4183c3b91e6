import CSQLite
import Foundation
import ReelSupport

/// A value bound to or read from an SQL statement.
enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// An open SQLite database file; one connection, used from one isolation domain.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    let url: URL

    /// Opens (creating) the database at `url`.
    init(url: URL) throws(ReelError) {
        self.url = url
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(url.path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(code)"
            sqlite3_close(opened)
            throw .faceIndexFailed(url, reason: "cannot open the database: \(reason)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit { sqlite3_close(handle) }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(ReelError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw .faceIndexFailed(url, reason: message.map { String(cString: $0) } ?? "error \(code)")
        }
    }

    /// Runs one statement with `values` bound to its `?` parameters and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [SQLValue] = []) throws(ReelError) -> [[SQLValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("cannot prepare '\(sql)'")
        }
        defer { sqlite3_finalize(statement) }
        for (position, value) in values.enumerated() {
            let index = Int32(position + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, reel_sqlite_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), reel_sqlite_transient())
                }
            case .null: code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw failure("cannot bind parameter \(index) of '\(sql)'") }
        }
        var rows: [[SQLValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure("'\(sql)' failed") }
            rows.append((0..<sqlite3_column_count(statement)).map { column in Self.value(statement, column) })
        }
        return rows
    }

    /// Runs `work` in one transaction: all of it is written, or (on a throw or a crash) none.
    func transaction<Value>(_ work: () throws(ReelError) -> Value) throws(ReelError) -> Value {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try work()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func failure(_ what: String) -> ReelError {
        .faceIndexFailed(url, reason: "\(what): \(String(cString: sqlite3_errmsg(handle)))")
    }

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

extension SQLValue {
    var text: String? { if case .text(let value) = self { return value } else { return nil } }
    var integer: Int64? { if case .integer(let value) = self { return value } else { return nil } }
    var real: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
    var blob: [UInt8]? { if case .blob(let value) = self { return value } else { return nil } }
}
