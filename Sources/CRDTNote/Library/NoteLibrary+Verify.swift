/// Checking every file of a library.
extension NoteLibrary {
    /// Reads every note in full (its snapshot file and journal entries, building its index) and
    /// returns what is wrong, one line per problem; empty when the library is consistent.
    /// Changes nothing (a torn journal end was already cut when the library was opened: see
    /// ``openReport``).
    public func verify() throws(NoteLibraryError) -> [String] {
        try withAccess { () throws(NoteLibraryError) -> [String] in
            // Damage found while replaying the journal; each note's own damage is found below.
            var problems = state.report.damagedNotes.filter { state.numbers[$0.key] == nil }
                .sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            for number in state.notes.keys.sorted() {
                guard let entry = state.notes[number] else { continue }
                do throws(NoteLibraryError) {
                    let note = try load(number)
                    if let error = note.stateProblem() {
                        problems.append("note \"\(entry.name)\": its state is damaged: \(error)")
                    } else if derivedTitle(note) != entry.derivedTitle {
                        problems.append("note \"\(entry.name)\": the index lists the title \"\(entry.derivedTitle)\", its text starts \"\(derivedTitle(note))\"")
                    }
                } catch {
                    problems.append(error.message)
                }
            }
            return problems
        }
    }
}
