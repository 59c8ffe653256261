/// Facts about the crdtnote library itself.
public enum CRDTNoteLibrary {
    /// The library's semantic version, printed by `crdtnote --version`.
    public static let version = "0.1.0"
}
