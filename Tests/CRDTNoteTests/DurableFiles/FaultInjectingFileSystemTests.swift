import Foundation
import Testing
@testable import CRDTNoteDurableFiles
@testable import CRDTNoteToolSupport

/// The fault-injecting file system: its page-cache model (visible at once, durable after a
/// flush), injected errors and power cuts, locks, and — checked against an independent model —
/// that a crash keeps every flushed byte and otherwise only drops or tears, never invents.
@Suite struct FaultInjectingFileSystemTests {
    @Test func writesAreVisibleAtOnceButDurableOnlyWhenFlushed() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectory(at: "/d")
        try files.syncDirectory(at: "/")
        try files.writeFile(at: "/d/f", Array("hello".utf8), mode: .truncate, permissions: nil, sync: false)
        #expect(try files.readFile(at: "/d/f") == Array("hello".utf8))
        // Neither the entry nor the bytes were flushed: the file is gone.
        files.crash()
        #expect(try files.status(at: "/d/f") == nil)

        // The entry flushed, the bytes not: the file is there, empty.
        try files.writeFile(at: "/d/f", Array("hello".utf8), mode: .truncate, permissions: nil, sync: false)
        try files.syncDirectory(at: "/d")
        files.crash()
        #expect(try files.readFile(at: "/d/f") == [])

        // Both flushed: it all survives; a later unflushed append is dropped.
        try files.writeFile(at: "/d/f", Array("hello".utf8), mode: .truncate, permissions: nil, sync: true)
        try files.append(Array(" world".utf8), to: "/d/f", sync: false)
        #expect(try files.readFile(at: "/d/f") == Array("hello world".utf8))
        files.crash()
        #expect(try files.readFile(at: "/d/f") == Array("hello".utf8))
        // A process crash, unlike a power loss, keeps what was not flushed.
        try files.append(Array(" again".utf8), to: "/d/f", sync: false)
        files.crashProcess()
        #expect(try files.readFile(at: "/d/f") == Array("hello again".utf8))
    }

    @Test func renamesAndRemovalsAreDurableOnlyWhenTheFolderIsFlushed() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectories(at: "/d")
        try files.writeFile(at: "/d/a", [1], mode: .truncate, permissions: nil, sync: true)
        try files.writeFile(at: "/d/gone", [2], mode: .truncate, permissions: nil, sync: true)
        try files.syncDirectory(at: "/d")
        try files.rename("/d/a", to: "/d/b")
        try files.removeFile(at: "/d/gone")
        #expect(try files.contentsOfDirectory(at: "/d") == ["b"])
        files.crash()
        #expect(try files.contentsOfDirectory(at: "/d") == ["a", "gone"])
        try files.rename("/d/a", to: "/d/b")
        try files.removeFile(at: "/d/gone")
        try files.syncDirectory(at: "/d")
        files.crash()
        #expect(try files.contentsOfDirectory(at: "/d") == ["b"])
        #expect(try files.readFile(at: "/d/b") == [1])
    }

    @Test func aFolderWhoseEntryWasNeverFlushedIsLostWithEverythingInIt() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectory(at: "/d") // not flushed into "/"
        try files.writeFile(at: "/d/f", [1], mode: .truncate, permissions: nil, sync: true)
        try files.syncDirectory(at: "/d")
        files.crash()
        #expect(try files.status(at: "/d") == nil)
        // createDirectories flushes every folder it makes into its parent.
        try files.createDirectories(at: "/d/e")
        try files.writeFile(at: "/d/e/f", [1], mode: .truncate, permissions: nil, sync: true)
        try files.syncDirectory(at: "/d/e")
        files.crash()
        #expect(try files.readFile(at: "/d/e/f") == [1])
    }

    @Test func anInjectedErrorFailsExactlyTheNthMatchingOperationAndChangesNothing() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectories(at: "/d")
        files.inject(.error(ENOSPC), onOperation: 3, of: .append)
        try files.append([1], to: "/d/log", sync: false)
        _ = try files.readFile(at: "/d/log") // not an append: not counted for the fault
        try files.append([2], to: "/d/log", sync: false)
        do {
            try files.append([3], to: "/d/log", sync: false)
            Issue.record("the third append succeeded")
        } catch {
            #expect(error.path == "/d/log")
            #expect(error.operation == .append)
            #expect(error.errorNumber == ENOSPC)
            #expect(error.message.contains("injected"))
        }
        #expect(try files.readFile(at: "/d/log") == [1, 2])
        try files.append([4], to: "/d/log", sync: false)
        #expect(try files.readFile(at: "/d/log") == [1, 2, 4])

        // Any operation, counted from now; a write with sync is two (the write, then the flush).
        files.inject(.error(EIO), onOperation: 2)
        #expect(throws: DurableFileError.self) { try files.append([5], to: "/d/log", sync: true) }
        #expect(try files.readFile(at: "/d/log") == [1, 2, 4, 5]) // written, not flushed
        files.crash()
        #expect(try files.status(at: "/d/log") == nil) // never flushed, nor its folder entry
    }

    @Test func aPowerCutFailsEveryOperationUntilTheCrash() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectories(at: "/d")
        try AtomicFile.write([1], to: "/d/f", on: files)
        files.inject(.powerLoss, of: .rename)
        try files.writeFile(at: "/d/g", [2], mode: .truncate, permissions: nil, sync: true)
        #expect(!files.isPoweredOff)
        do {
            try files.rename("/d/g", to: "/d/f")
            Issue.record("the rename ran without power")
        } catch {
            #expect(error.errorNumber == EIO)
            #expect(error.operation == .rename)
        }
        #expect(files.isPoweredOff)
        #expect(throws: DurableFileError.self) { _ = try files.readFile(at: "/d/f") }
        #expect(throws: DurableFileError.self) { try files.syncDirectory(at: "/d") }
        files.crash()
        #expect(!files.isPoweredOff)
        #expect(try files.readFile(at: "/d/f") == [1])
        #expect(try files.contentsOfDirectory(at: "/d") == ["f"])
    }

    @Test func oneLockHolderPerFileAndACrashReleasesIt() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectories(at: "/d")
        let first = try files.lockFile(at: "/d/.lock", waiting: false)
        do {
            _ = try files.lockFile(at: "/d/.lock", waiting: false)
            Issue.record("a second holder got the lock")
        } catch {
            #expect(error.isLockHeldElsewhere)
            #expect(error.path == "/d/.lock")
        }
        first.unlock()
        let second = try files.lockFile(at: "/d/.lock", waiting: false)
        files.crashProcess() // the holder died
        let third = try files.lockFile(at: "/d/.lock", waiting: false)
        // The dead holder's late unlock does not release the new holder's lock.
        second.unlock()
        #expect(throws: DurableFileError.self) { _ = try files.lockFile(at: "/d/.lock", waiting: false) }
        #expect(third.isHeld)
    }

    // MARK: Crashes against an independent model

    /// What the test believes about folder `/d`: per file (by identity) its flushed and current
    /// bytes, and the folder's flushed entries plus the changes made since, in order.
    struct Model {
        struct File {
            var durable: [UInt8]
            var current: [UInt8]
        }

        enum Change {
            case set(String, Int)
            case remove(String)
            case move(String, String)
        }

        var files: [Int: File] = [:]
        var durable: [String: Int] = [:]
        var changes: [Change] = []
        var nextID = 0

        /// The entries with the first `kept` changes applied.
        func entries(keeping kept: Int) -> [String: Int] {
            var entries = durable
            for change in changes.prefix(kept) {
                switch change {
                case .set(let name, let id): entries[name] = id
                case .remove(let name): entries[name] = nil
                case .move(let from, let to):
                    if let id = entries.removeValue(forKey: from) { entries[to] = id }
                }
            }
            return entries
        }

        var current: [String: Int] { entries(keeping: changes.count) }

        mutating func create(_ name: String, _ bytes: [UInt8], flushed: Bool) {
            nextID += 1
            files[nextID] = File(durable: flushed ? bytes : [], current: bytes)
            changes.append(.set(name, nextID))
        }

        /// After a crash: what was observed is now both flushed and current.
        mutating func settle(_ observed: [String: [UInt8]]) {
            files = [:]
            durable = [:]
            changes = []
            for (name, bytes) in observed {
                nextID += 1
                files[nextID] = File(durable: bytes, current: bytes)
                durable[name] = nextID
            }
        }

        /// Whether a crash may leave `observed` in a file that was `file`: its flushed bytes, or
        /// a torn write — the bytes it shares with the flushed ones, then a prefix of the rest of
        /// the current bytes whose last few may be garbage.
        static func allows(_ observed: [UInt8], for file: File) -> Bool {
            if observed == file.durable { return true }
            let shared = zip(file.durable, file.current).prefix { $0 == $1 }.count
            guard observed.count >= shared, observed.count <= file.current.count else { return false }
            guard observed[..<shared] == file.current[..<shared] else { return false }
            let firstWrong = (shared..<observed.count).first { observed[$0] != file.current[$0] } ?? observed.count
            return observed.count - firstWrong <= FaultInjectingFileSystem.maximumGarbageTail
        }
    }

    /// What the property test saw, to prove every kind of outcome happened.
    struct Outcomes {
        var dropped = 0
        var kept = 0
        var tornPrefixes = 0
        var garbage = 0
        var partialFolders = 0
        var lostFlushedBytes = 0
    }

    @Test func aCrashKeepsEveryFlushedByteAndOnlyDropsOrTearsTheRest() throws {
        var outcomes = Outcomes()
        for seed in 0..<60 as Range<UInt64> {
            var random = SplitMix64(seed: 0xD0_0000 + seed)
            let files = FaultInjectingFileSystem()
            try files.createDirectories(at: "/d")
            var model = Model()
            for round in 0..<4 {
                for _ in 0..<(10 + random.below(30)) {
                    try step(files, &model, &random)
                    // Everything done is visible at once.
                    #expect(try files.contentsOfDirectory(at: "/d") == model.current.keys.sorted(), "seed \(seed)")
                }
                let powerLossDropsAll = random.below(4) == 0
                if powerLossDropsAll { files.crash() } else { files.crash(using: &random) }
                try check(files, model, dropsAll: powerLossDropsAll, &outcomes, "seed \(seed) round \(round)")
                var observed: [String: [UInt8]] = [:]
                for name in try files.contentsOfDirectory(at: "/d") { observed[name] = try files.readFile(at: "/d/" + name) }
                model.settle(observed)
            }
        }
        // Every kind of outcome happened, so each part of the check was exercised.
        #expect(outcomes.dropped > 0)
        #expect(outcomes.kept > 0)
        #expect(outcomes.tornPrefixes > 0)
        #expect(outcomes.garbage > 0)
        #expect(outcomes.partialFolders > 0)
        #expect(outcomes.lostFlushedBytes == 0)
    }

    /// One random operation on `/d`, done on the file system and in the model; operations on a
    /// missing file must fail with `ENOENT`, creating an existing one with `EEXIST`.
    func step(_ files: FaultInjectingFileSystem, _ model: inout Model, _ random: inout SplitMix64) throws {
        let names = ["a", "b", "c", "d"]
        let name = names[random.below(names.count)]
        let path = "/d/" + name
        let id = model.current[name]
        let bytes = (0..<random.below(12)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let sync = random.below(2) == 0
        func expectError(_ code: Int32, _ body: () throws(DurableFileError) -> Void) {
            do {
                try body()
                Issue.record("expected errno \(code) on \(path)")
            } catch {
                #expect(error.errorNumber == code)
                #expect(error.path == path)
            }
        }
        switch random.below(8) {
        case 0, 1:
            try files.writeFile(at: path, bytes, mode: .truncate, permissions: nil, sync: sync)
            if let id {
                model.files[id]?.current = bytes
                if sync { model.files[id]?.durable = bytes }
            } else {
                model.create(name, bytes, flushed: sync)
            }
        case 2, 3:
            try files.append(bytes, to: path, sync: sync)
            if let id {
                model.files[id]?.current += bytes
                if sync, let current = model.files[id]?.current { model.files[id]?.durable = current }
            } else {
                model.create(name, bytes, flushed: sync)
            }
        case 4:
            if let id {
                try files.syncFile(at: path)
                if let current = model.files[id]?.current { model.files[id]?.durable = current }
            } else {
                expectError(ENOENT) { () throws(DurableFileError) in try files.syncFile(at: path) }
            }
        case 5:
            try files.syncDirectory(at: "/d")
            model.durable = model.current
            model.changes = []
        case 6:
            let other = names.filter { $0 != name }[random.below(names.count - 1)]
            if id != nil {
                try files.rename(path, to: "/d/" + other)
                model.changes.append(.move(name, other))
            } else {
                expectError(ENOENT) { () throws(DurableFileError) in try files.rename(path, to: "/d/" + other) }
            }
        default:
            if id != nil {
                if random.below(2) == 0 {
                    try files.removeFile(at: path)
                    model.changes.append(.remove(name))
                } else {
                    expectError(EEXIST) { () throws(DurableFileError) in
                        try files.writeFile(at: path, bytes, mode: .createNew, permissions: nil, sync: false)
                    }
                }
            } else {
                expectError(ENOENT) { () throws(DurableFileError) in try files.removeFile(at: path) }
            }
        }
    }

    /// Checks the state after a crash against the model: the folder holds its flushed entries
    /// plus a prefix of the later changes, and every file holds what the model allows.
    func check(_ files: FaultInjectingFileSystem, _ model: Model, dropsAll: Bool, _ outcomes: inout Outcomes, _ context: String) throws {
        let names = try files.contentsOfDirectory(at: "/d")
        var observed: [String: [UInt8]] = [:]
        for name in names { observed[name] = try files.readFile(at: "/d/" + name) }
        let keptCounts = dropsAll ? [0] : Array(0...model.changes.count)
        let matching = keptCounts.first { kept in
            let entries = model.entries(keeping: kept)
            guard entries.keys.sorted() == names else { return false }
            return entries.allSatisfy { name, id in
                guard let file = model.files[id], let bytes = observed[name] else { return false }
                return dropsAll ? bytes == file.durable : Model.allows(bytes, for: file)
            }
        }
        guard let kept = matching else {
            Issue.record("\(context): no state the model allows; saw \(observed), model \(model)")
            return
        }
        if kept > 0 && kept < model.changes.count { outcomes.partialFolders += 1 }
        for (name, id) in model.entries(keeping: kept) {
            guard let file = model.files[id], let bytes = observed[name], file.durable != file.current else { continue }
            // Only appends since the last flush: every flushed byte must still be there.
            if file.current.starts(with: file.durable) && !bytes.starts(with: file.durable) { outcomes.lostFlushedBytes += 1 }
            if bytes == file.durable {
                outcomes.dropped += 1
            } else if bytes == file.current {
                outcomes.kept += 1
            } else if file.current.starts(with: bytes) {
                outcomes.tornPrefixes += 1
            } else {
                outcomes.garbage += 1
            }
        }
    }
}
