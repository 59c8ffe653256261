import CRDTNote

print("crdtnote-bench \(CRDTNoteLibrary.version)")
