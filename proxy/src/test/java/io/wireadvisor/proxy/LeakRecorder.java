package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Collects Netty's leak reports (the tests run at {@code io.netty.leakDetection.level=paranoid},
 * so every buffer is tracked) so that a test can fail on them instead of a log line going unseen.
 * Installed before any buffer class loads, by {@link LeakDetectionListener}.
 */
final class LeakRecorder {
  private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
  private static volatile boolean installed;

  private LeakRecorder() {}

  static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(
        new ResourceLeakDetectorFactory() {
          @Override
          public <T> ResourceLeakDetector<T> newResourceLeakDetector(
              Class<T> resource, int samplingInterval, long maxActive) {
            return new ResourceLeakDetector<T>(resource, samplingInterval) {
              @Override
              protected void reportTracedLeak(String resourceType, String records) {
                LEAKS.add(resourceType + ": " + records);
              }

              @Override
              protected void reportUntracedLeak(String resourceType) {
                LEAKS.add(resourceType + " (untraced)");
              }
            };
          }
        });
  }

  static boolean installed() {
    return installed;
  }

  /**
   * Runs the garbage collector and lets the detector look at what was collected; fails with the
   * leak records if any buffer was dropped without being released.
   */
  static void assertNoLeaks() throws InterruptedException {
    assertThat(installed).as("leak recorder installed before Netty loaded").isTrue();
    assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50);
      // Leaks are reported when the detector next tracks a buffer.
      for (ByteBufAllocator alloc :
          new ByteBufAllocator[] {
            ByteBufAllocator.DEFAULT, PooledByteBufAllocator.DEFAULT, UnpooledByteBufAllocator.DEFAULT
          }) {
        ByteBuf b = alloc.directBuffer(16);
        b.release();
        b = alloc.heapBuffer(16);
        b.release();
      }
    }
    assertThat(LEAKS).as("Netty buffer leaks").isEmpty();
  }
}
