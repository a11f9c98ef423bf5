/**
 * A captured window of real traffic, for replay under another configuration: per connection, in
 * order, with timing, each statement's template and its parameter values, errors seen. The file
 * format is documented in {@code docs/replay.md} ({@link io.wireadvisor.capture.CaptureFormat}).
 *
 * <p>A capture holds data values; it is written 0600, says so in its header, and can be written
 * with values masked (then replay generates values of the same types).
 */
package io.wireadvisor.capture;
