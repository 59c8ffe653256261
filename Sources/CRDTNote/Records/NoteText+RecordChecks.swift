extension NoteText {
    /// This note with its index built: a note loaded lazily from a record's payload has its runs
    /// decoded and checked now (a no-op for any other note). Runs found corrupt are
    /// `.corruptPayload` of `recordName`'s `field`, with the byte and what is wrong.
    func built(forRecord recordName: String, field: String = NoteSchema.Field.payload) throws(NoteRecordError) -> NoteText {
        var copy = self
        do {
            try copy.buildIndex()
        } catch {
            throw NoteRecordError(.corruptPayload, recordName: recordName, field: field, "\(error)")
        }
        return copy
    }
}
