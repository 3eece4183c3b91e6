import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over its DevTools pipe (`--remote-debugging-pipe`: commands in on
/// descriptor 3, replies out on 4, each a JSON message ended by a NUL). It runs in real time, so
/// a page that decodes media is waited for by the promise it leaves, not by virtual time, which
/// under a loaded machine ran out before the media threads finished (or ran for minutes).
final class ChromiumDevTools {
    enum Failure: Error, CustomStringConvertible {
        case cannotStart(Int32)
        case noReply(String, seconds: Double)
        case closed(String)

        var description: String {
            switch self {
            case .cannotStart(let code): "chromium did not start (posix_spawn \(code))"
            case .noReply(let method, let seconds): "chromium sent no reply to \(method) in \(Int(seconds)) s"
            case .closed(let method): "chromium closed its pipe waiting for \(method)"
            }
        }
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private var buffer = [UInt8]()
    private var nextID = 1

    /// Starts Chromium on `page` with `arguments` added to the headless defaults.
    init(page: URL, arguments: [String] = []) throws {
        var toChromium: [Int32] = [0, 0], fromChromium: [Int32] = [0, 0]
        guard pipe(&toChromium) == 0, pipe(&fromChromium) == 0 else { throw Failure.cannotStart(errno) }
        // Every end moved far from 3 and 4 (so that dup2 onto them always makes a fresh,
        // inheritable descriptor) and closed on exec (so that processes other tests start do
        // not hold the pipes open).
        let childIn = fcntl(toChromium[0], F_DUPFD_CLOEXEC, 16), childOut = fcntl(fromChromium[1], F_DUPFD_CLOEXEC, 16)
        commands = fcntl(toChromium[1], F_DUPFD_CLOEXEC, 16)
        replies = fcntl(fromChromium[0], F_DUPFD_CLOEXEC, 16)
        (toChromium + fromChromium).forEach { close($0) }
        defer { close(childIn); close(childOut) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childIn, 3)
        posix_spawn_file_actions_adddup2(&actions, childOut, 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that the renderer and GPU children go with it on a kill.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--remote-debugging-pipe", "--no-first-run", "--mute-audio"] + arguments + [page.absoluteString]
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/usr/bin/chromium", &actions, &attributes, &cArguments, environ)
        guard status == 0 else {
            close(commands); close(replies)
            throw Failure.cannotStart(status)
        }
        pid = child
    }

    deinit {
        close(commands)
        close(replies)
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Sends `method` (to the page's session when given) and returns its reply's object.
    func call(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil,
              timeout: TimeInterval) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure.closed(method) }
            sent += count
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let end = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                if let reply = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                   reply["id"] as? Int == id { return reply }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure.noReply(method, seconds: timeout) }
            var poller = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) >= 0 else { continue }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure.closed(method) }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The string the page's `window.pageResult` promise resolves to, waited for in real time
    /// up to `timeout`: the page is found and attached to, and the evaluation is tried again
    /// while the page has not yet loaded its script.
    func pageResult(timeout: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var session: String?
        var last = "no page target"
        while deadline.timeIntervalSinceNow > 0 {
            if session == nil {
                let targets = try call("Target.getTargets", timeout: deadline.timeIntervalSinceNow)
                let infos = (targets["result"] as? [String: Any])?["targetInfos"] as? [[String: Any]] ?? []
                if let page = infos.first(where: { $0["type"] as? String == "page" }), let target = page["targetId"] as? String {
                    let attached = try call("Target.attachToTarget", ["targetId": target, "flatten": true],
                                            timeout: deadline.timeIntervalSinceNow)
                    session = (attached["result"] as? [String: Any])?["sessionId"] as? String
                }
            }
            if let session {
                let expression = """
                    new Promise(done => { const wait = () => window.pageResult ? done(window.pageResult) : setTimeout(wait, 50); wait(); })
                    """
                let reply = try call("Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true],
                                     session: session, timeout: deadline.timeIntervalSinceNow)
                let result = reply["result"] as? [String: Any]
                if let value = (result?["result"] as? [String: Any])?["value"] as? String, result?["exceptionDetails"] == nil {
                    return value
                }
                last = "\(reply)"
            }
            usleep(200_000)
        }
        throw Failure.noReply("the page's result (last: \(last.prefix(300)))", seconds: timeout)
    }
}
