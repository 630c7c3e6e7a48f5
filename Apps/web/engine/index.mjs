// The web deck's engine, all in one import: `import * as engine from './engine/index.mjs'`.
export { VirtualTime, LengthThreshold, distance } from './time.mjs';
export { DeckConstants } from './constants.mjs';
export { DeckGrid, DeckGeometryError } from './grid.mjs';
export { PageStrip } from './page-strip.mjs';
export { EdgeDwellPager } from './edge-dwell.mjs';
export { HoldHintPlacement } from './hold-hint.mjs';
export { Wiggle } from './wiggle.mjs';
export { CoordinateSpace, DragValue, TapValue, TapRecognizer, LongPressRecognizer, DragRecognizer, valuesEqual } from './recognizers.mjs';
export { SequenceRecognizer, SimultaneousRecognizer, ExclusiveRecognizer } from './combinators.mjs';
export { GestureTracker } from './tracker.mjs';
export { SwipePager, PagerSession, FlipRule } from './swipe-pager.mjs';
export { ArrangeSession, ArrangeScene, HoldHint, DeckGesturesError, slotKey, filledSlots } from './arrange-session.mjs';
export { DeckLayout, DeckModelError, sameButton, validateButton, isBlankLabel, buttonFromJSON } from './layout.mjs';
export { DeviceLayout } from './device-layout.mjs';
export { DeviceGrid } from './device-grid.mjs';
