import CRDTNote

extension ReplicaID {
    /// A fixed id for tests, so runs and expected texts repeat exactly. Apps never do this:
    /// they make one id per writer with `ReplicaID.random()` and keep it.
    package static func test(_ value: UInt64) -> ReplicaID {
        ReplicaID(rawValue: value)
    }
}
