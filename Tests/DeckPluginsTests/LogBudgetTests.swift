@testable import DeckPlugins
import Testing

/// The budget of a plugin's log lines, with time passed in.
@Suite struct LogBudgetTests {
    let start = ContinuousClock.now

    @Test func linesPastTheBudgetAreCountedAndTheCountIsDueWhenTheWindowEnds() {
        var budget = LogBudget(capacity: 3, window: .seconds(10))
        #expect(budget.take(now: start) == .log(suppressedBefore: 0, isLast: false))
        #expect(budget.take(now: start + .seconds(1)) == .log(suppressedBefore: 0, isLast: false))
        #expect(budget.take(now: start + .seconds(2)) == .log(suppressedBefore: 0, isLast: true))
        #expect(budget.take(now: start + .seconds(3)) == .suppress(countDue: start + .seconds(10)), "the first counted line arms the count")
        #expect(budget.take(now: start + .seconds(4)) == .suppress(countDue: nil), "once per window")
        #expect(budget.takeCount(now: start + .seconds(9)) == 0, "not before the window ends")
        #expect(budget.takeCount(now: start + .seconds(10)) == 2)
        #expect(budget.takeCount(now: start + .seconds(11)) == 0, "said once")
        #expect(budget.take(now: start + .seconds(12)) == .log(suppressedBefore: 0, isLast: false), "a new window, nothing said twice")
    }

    @Test func theNextLineSaysTheCountWhenNoTimerDid() {
        var budget = LogBudget(capacity: 1, window: .seconds(10))
        #expect(budget.take(now: start) == .log(suppressedBefore: 0, isLast: true))
        #expect(budget.take(now: start + .seconds(1)) == .suppress(countDue: start + .seconds(10)))
        #expect(budget.take(now: start + .seconds(2)) == .suppress(countDue: nil))
        #expect(budget.take(now: start + .seconds(30)) == .log(suppressedBefore: 2, isLast: true))
        #expect(budget.takeCount(now: start + .seconds(40)) == 0)
    }

    @Test func aWindowWithNothingCountedHasNothingToSay() {
        var budget = LogBudget(capacity: 5, window: .seconds(1))
        #expect(budget.take(now: start) == .log(suppressedBefore: 0, isLast: false))
        #expect(budget.takeCount(now: start + .seconds(5)) == 0)
    }
}
