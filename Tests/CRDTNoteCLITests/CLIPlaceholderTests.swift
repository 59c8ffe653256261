import Testing

@Test func cliTestTargetBuilds() {
    #expect(Bool(true))
}
