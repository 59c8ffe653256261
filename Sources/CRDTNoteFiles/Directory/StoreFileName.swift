import CRDTNote

/// File names for record and zone names in the folder store, distinct even on a case-insensitive
/// file system (APFS's and NTFS's default): lowercase ASCII letters, digits, `_`, `-` and an inner
/// `.` are kept; every other byte of the name's UTF-8 — uppercase letters included — is `%XX` with
/// uppercase hex digits. A name's letters are therefore all lowercase and its only uppercase
/// characters are hex digits right after a `%`, so two names that differ only in case cannot come
/// out of it: `Note` is `%4Eote`, `note` is `note`. Names longer than 200 characters are cut to
/// 150 and suffixed with `~` and the FNV-1a hash of the whole name.
///
/// Folders written before this rule (layout 1) kept uppercase letters (`Note`); `legacy` gives
/// those names, and opening such a folder renames its files once (``DirectoryRecordStore``).
enum StoreFileName {
    /// The file name of `name` (layout 2).
    static func escape(_ name: String) -> String {
        encode(name, keepUppercase: false)
    }

    /// The file name layout 1 gave `name`: the same, but uppercase letters kept as they are.
    static func legacy(_ name: String) -> String {
        encode(name, keepUppercase: true)
    }

    /// Whether `fileName` may be a layout 1 name that layout 2 spells differently: it has an
    /// uppercase letter outside a `%XX` escape.
    static func mayBeLegacy(_ fileName: String) -> Bool {
        var bytes = Array(fileName.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%") {
                bytes = bytes.dropFirst(2)
            } else if (0x41...0x5A).contains(byte) {
                return true
            }
        }
        return false
    }

    /// The name a layout 1 file name stands for; nil for a cut (hashed) one or one that is not
    /// an escape (those are resolved from the files' contents).
    static func unescapeLegacy(_ fileName: String) -> String? {
        var out: [UInt8] = []
        var bytes = Array(fileName.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                guard byte != UInt8(ascii: "~") else { return nil }
                out.append(byte)
                continue
            }
            guard bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            out.append(value)
            bytes = bytes.dropFirst(2)
        }
        let name = String(decoding: out, as: UTF8.self)
        guard Array(name.utf8) == out, !name.isEmpty, legacy(name) == fileName else { return nil }
        return name
    }

    private static func encode(_ name: String, keepUppercase: Bool) -> String {
        var out = ""
        for (index, byte) in name.utf8.enumerated() {
            let keep = (0x30...0x39).contains(byte) || (keepUppercase && (0x41...0x5A).contains(byte)) || (0x61...0x7A).contains(byte)
                || byte == 0x5F || byte == 0x2D || (byte == 0x2E && index > 0)
            if keep {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        if out.isEmpty { out = "%" }
        if out.utf8.count > 200 { out = String(out.prefix(150)) + "~" + AssetChecksum.fnv1a64Hex(Array(name.utf8)) }
        return out
    }
}
