import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct HuffmanTableTests {
    /// Canonical codes for `lengths` (RFC 1951 section 3.2.2), computed the slow, obvious way.
    func canonicalCodes(_ lengths: [UInt8]) -> [Int] {
        var codes = [Int](repeating: 0, count: lengths.count)
        var code = 0
        for len in 1...15 {
            for (sym, l) in lengths.enumerated() where Int(l) == len {
                codes[sym] = code
                code += 1
            }
            code <<= 1
        }
        return codes
    }

    /// Lengths 1...15 plus a second 15: a complete code whose long codes need second-level tables.
    @Test(arguments: [5, 7, 10])
    func decodesCodesLongerThanThePrimaryTable(_ primaryBits: Int) throws {
        let lengths: [UInt8] = (1...15).map { UInt8($0) } + [15]
        let infos = (0..<lengths.count).map { HuffmanTable.info(kind: HuffmanTable.kindLiteral, value: $0) }
        let table = try lengths.withUnsafeBufferPointer { try HuffmanTable(lengths: $0, infos: infos, primaryBits: primaryBits) }
        let codes = canonicalCodes(lengths)
        var writer = DeflateBitWriter()
        let message = [15, 0, 14, 3, 9, 10, 11, 1, 12, 13, 2, 15, 14, 0]
        for sym in message { writer.writeCode(codes[sym], length: Int(lengths[sym])) }
        let decoded: [Int] = try writer.bytes.withUnsafeBufferPointer { input in
            try table.entries.withUnsafeBufferPointer { entries in
                var stream = DeflateBitStream(input, at: 0)
                return try message.map { _ in Int(try stream.decode(entries, primaryBits: primaryBits, "test") >> 16) }
            }
        }
        #expect(decoded == message)
    }

    @Test func rejectsOversubscribedCodes() {
        let lengths: [UInt8] = [1, 1, 1]
        let infos = [UInt32](repeating: 0, count: 3)
        #expect(throws: HuffmanTable.BuildFailure.self) {
            try lengths.withUnsafeBufferPointer { try HuffmanTable(lengths: $0, infos: infos, primaryBits: 7) }
        }
    }

    @Test func unusedPatternsOfAnIncompleteCodeAreInvalid() throws {
        let lengths: [UInt8] = [1]   // one distance code of length 1, allowed by RFC 1951
        let infos = [HuffmanTable.info(kind: HuffmanTable.kindLiteral, value: 0)]
        let table = try lengths.withUnsafeBufferPointer { try HuffmanTable(lengths: $0, infos: infos, primaryBits: 4) }
        let bytes: [UInt8] = [0b10]  // code 0, then the unused code 1
        let error: BinaryDecodingError? = bytes.withUnsafeBufferPointer { input in
            table.entries.withUnsafeBufferPointer { entries -> BinaryDecodingError? in
                var stream = DeflateBitStream(input, at: 0)
                do throws(BinaryDecodingError) {
                    let first = try stream.decode(entries, primaryBits: 4, "test")
                    #expect(first >> 16 == 0)
                    _ = try stream.decode(entries, primaryBits: 4, "test")
                    return nil
                } catch { return error }
            }
        }
        #expect(error?.code == .invalidValue)
    }
}
