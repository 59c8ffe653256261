/// Facts about this crdtnote release (what `crdtnote --version` prints; devices announce it).
public enum CRDTNoteRelease {
    /// The library's semantic version, printed by `crdtnote --version`.
    public static let version = "0.5.0"
}
