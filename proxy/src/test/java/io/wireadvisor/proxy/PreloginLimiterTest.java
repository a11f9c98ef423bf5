package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 28, point 6: the counts behind --max-prelogin-connections and --max-prelogin-per-source. */
class PreloginLimiterTest {
  @Test
  void limitsPerSourceAndInTotalAndForgetsSourcesWithNoClientLeft() throws Exception {
    PreloginLimiter limiter = new PreloginLimiter(10, 3);
    InetAddress a = InetAddress.getByName("10.0.0.1");
    InetAddress b = InetAddress.getByName("10.0.0.2");
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire(a)).isNull();
    }
    assertThat(limiter.tryAcquire(a)).isEqualTo(PreloginLimiter.Refusal.SOURCE);
    assertThat(limiter.tryAcquire(b)).as("another source is not locked out").isNull();
    assertThat(limiter.total()).isEqualTo(4);
    assertThat(limiter.fromSource(a)).isEqualTo(3);
    limiter.release(a);
    assertThat(limiter.tryAcquire(a)).as("a place given back is taken again").isNull();
    // Many sources: the total bounds them, and the map never holds more than the total.
    List<InetAddress> admitted = new ArrayList<>(List.of(a, a, a, b));
    for (int i = 3; i < 100; i++) {
      InetAddress s = InetAddress.getByName("10.0.1." + i);
      PreloginLimiter.Refusal r = limiter.tryAcquire(s);
      if (r == null) {
        admitted.add(s);
      } else {
        assertThat(r).isEqualTo(PreloginLimiter.Refusal.TOTAL);
      }
      assertThat(limiter.total()).isLessThanOrEqualTo(10);
      assertThat(limiter.sources()).isLessThanOrEqualTo(limiter.total());
    }
    assertThat(admitted).hasSize(10);
    for (InetAddress s : admitted) {
      limiter.release(s);
    }
    assertThat(limiter.total()).isZero();
    assertThat(limiter.sources()).as("no entry left behind").isZero();
  }

  @Test
  void anIpv6SourceIsItsSlash64() throws Exception {
    PreloginLimiter limiter = new PreloginLimiter(100, 2);
    assertThat(limiter.tryAcquire(InetAddress.getByName("2001:db8:1:2::1"))).isNull();
    assertThat(limiter.tryAcquire(InetAddress.getByName("2001:db8:1:2:ffff::9"))).isNull();
    assertThat(limiter.tryAcquire(InetAddress.getByName("2001:db8:1:2:abcd:1:2:3")))
        .as("a third address of the same /64")
        .isEqualTo(PreloginLimiter.Refusal.SOURCE);
    assertThat(limiter.tryAcquire(InetAddress.getByName("2001:db8:1:3::1"))).isNull();
    assertThat(limiter.sources()).isEqualTo(2);
    assertThat(PreloginLimiter.source(InetAddress.getByName("192.0.2.7")))
        .isEqualTo(InetAddress.getByName("192.0.2.7"));
  }

  @Test
  void aSlotIsGivenBackOnceWhateverCallsIt() throws Exception {
    PreloginLimiter limiter = new PreloginLimiter(5, 5);
    InetAddress a = InetAddress.getByName("127.0.0.1");
    assertThat(limiter.tryAcquire(a)).isNull();
    assertThat(limiter.tryAcquire(a)).isNull();
    PreloginSlot slot = new PreloginSlot(limiter, a);
    slot.release(); // at login
    slot.release(); // and at close
    assertThat(slot.held()).isFalse();
    assertThat(limiter.total()).isEqualTo(1);
    assertThat(limiter.fromSource(a)).isEqualTo(1);
  }
}
