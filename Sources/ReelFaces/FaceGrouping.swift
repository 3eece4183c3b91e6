import Foundation

/// Groups face descriptors into people and keeps group ids stable across regroupings.
///
/// Faces closer than `linkDistance` in dlib's embedding space are linked (the same person is
/// typically within 0.2-0.45, different people 0.65 and more), then chinese whispers labels the
/// graph: each face takes the label most of its links carry, in a fixed order (the faces' asset
/// ids and positions, so the data decides, not insertion order), until nothing changes. Links
/// all count the same, as in dlib's face clustering: weighting them by closeness let a pair of
/// near-identical photos hold out as a group of their own against the rest of the person's.
enum FaceGrouping {
    /// Links between faces closer than this.
    static let linkDistance: Float = 0.5
    /// `identifyFaces` matches a new face to a group when a member is closer than this.
    static let matchDistance: Float = 0.6

    static func distance(_ a: [Float], _ b: [Float]) -> Float {
        var total: Float = 0
        for index in 0..<min(a.count, b.count) {
            let difference = a[index] - b[index]
            total += difference * difference
        }
        return total.squareRoot()
    }

    /// The groups of `descriptors`, as lists of indices, largest first (ties by first index).
    static func clusters(_ descriptors: [[Float]], linkDistance: Float = linkDistance, rounds: Int = 100) -> [[Int]] {
        let count = descriptors.count
        var links = [[(neighbour: Int, weight: Float)]](repeating: [], count: count)
        for a in 0..<count {
            for b in (a + 1)..<max(count, a + 1) {
                let gap = distance(descriptors[a], descriptors[b])
                guard gap < linkDistance else { continue }
                links[a].append((b, 1))
                links[b].append((a, 1))
            }
        }
        var labels = Array(0..<count)
        for _ in 0..<rounds {
            var changed = false
            for node in 0..<count where !links[node].isEmpty {
                var votes: [Int: Float] = [:]
                for link in links[node] { votes[labels[link.neighbour], default: 0] += link.weight }
                guard let best = votes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key,
                      best != labels[node] else { continue }
                labels[node] = best
                changed = true
            }
            if !changed { break }
        }
        var groups: [Int: [Int]] = [:]
        for (node, label) in labels.enumerated() { groups[label, default: []].append(node) }
        return groups.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0[0] < $1[0] }
    }

    /// An entity id for each group: the id most of its members had before, when no larger share
    /// of that id went to another group (a group that split keeps its id in its larger part; two
    /// that merged keep the id of the larger), else a new id.
    static func entities(for groups: [[Int]], previous: [FaceEntityID?],
                         newID: () -> FaceEntityID = { FaceEntityID(UUID().uuidString.lowercased()) }) -> [FaceEntityID] {
        var overlaps: [(group: Int, entity: FaceEntityID, count: Int)] = []
        for (group, members) in groups.enumerated() {
            var counts: [FaceEntityID: Int] = [:]
            for member in members { if let old = previous[member] { counts[old, default: 0] += 1 } }
            overlaps += counts.map { (group, $0.key, $0.value) }
        }
        overlaps.sort { $0.count != $1.count ? $0.count > $1.count : ($0.group != $1.group ? $0.group < $1.group : $0.entity < $1.entity) }
        var assigned: [Int: FaceEntityID] = [:]
        var used: Set<FaceEntityID> = []
        for overlap in overlaps where assigned[overlap.group] == nil && !used.contains(overlap.entity) {
            assigned[overlap.group] = overlap.entity
            used.insert(overlap.entity)
        }
        return groups.indices.map { assigned[$0] ?? newID() }
    }

    /// The entity each of `new` faces carries over from `old` (the faces an earlier insert of the
    /// same asset stored), so that adding a photo or video again keeps its people's ids: the
    /// old face seen at the same time (within `sameTime` seconds, or both photos) whose box
    /// overlaps most (at least half of their union), else the old face with the nearest
    /// descriptor within `linkDistance`; nil when none is, or it had no entity.
    static func carriedEntities(new: [StoredFace], old: [StoredFace], sameTime: Double = 0.25) -> [FaceEntityID?] {
        let known = old.filter { $0.face.entityID != nil }
        return new.map { candidate in
            let atSameTime = known.filter { previous in
                switch (previous.face.time, candidate.face.time) {
                case (nil, nil): return true
                case let (before?, now?): return abs(before.seconds - now.seconds) <= sameTime
                default: return false
                }
            }
            let overlapping = atSameTime.map { ($0, FaceTracks.overlap($0.face.bounds, candidate.face.bounds)) }
                .filter { $0.1 >= 0.5 }.max { $0.1 < $1.1 }
            if let overlapping { return overlapping.0.face.entityID }
            let nearest = known.map { ($0, distance($0.descriptor, candidate.descriptor)) }.min { $0.1 < $1.1 }
            guard let nearest, nearest.1 < linkDistance else { return nil }
            return nearest.0.face.entityID
        }
    }
}
