import CRDTNote

/// Applies patches the way a text view would, independently of the library: by UTF-16 ranges
/// on an array of UTF-16 units (what `NSMutableString` does on Apple platforms; not through
/// `NSMutableString` itself, because swift-corelibs-foundation's rounds UTF-16 offsets to
/// character boundaries around combining marks), and by scalar ranges on an array of scalars.
enum TextPatchReplay {
    /// `text` with the patch's replacements applied in order, by UTF-16 ranges.
    static func applyUTF16(_ patch: TextPatch, to text: String) -> String {
        var units = Array(text.utf16)
        for r in patch.replacements {
            units.replaceSubrange(r.utf16Range, with: Array(r.text.utf16))
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// `text` with the patch's replacements applied in order, by Unicode-scalar ranges.
    static func applyScalars(_ patch: TextPatch, to text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        for r in patch.replacements {
            scalars.replaceSubrange(r.scalarRange, with: Array(r.text.unicodeScalars))
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// Whether both ways of applying `patch` to `old` give exactly `new` (scalar for scalar), and
    /// every range lies inside the text it applies to.
    static func check(_ patch: TextPatch, from old: String, to new: String) -> Bool {
        var units = old.utf16.count
        var scalars = old.unicodeScalars.count
        for r in patch.replacements {
            guard r.utf16Range.lowerBound >= 0, r.utf16Range.upperBound <= units,
                  r.scalarRange.lowerBound >= 0, r.scalarRange.upperBound <= scalars else { return false }
            units += r.text.utf16.count - r.utf16Range.count
            scalars += r.text.unicodeScalars.count - r.scalarRange.count
        }
        let expected = Array(new.unicodeScalars)
        return Array(applyUTF16(patch, to: old).unicodeScalars) == expected
            && Array(applyScalars(patch, to: old).unicodeScalars) == expected
    }
}
