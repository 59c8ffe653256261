import CRDTNote

// Placeholder entry point; the command-line front end replaces this file.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--version" {
    print(CRDTNoteLibrary.version)
} else {
    print("usage: crdtnote <command> [options]")
}
