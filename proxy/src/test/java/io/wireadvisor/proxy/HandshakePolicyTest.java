package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link Handshake.Policy#of(ProxyConfig)} is how every connection of a running proxy learns its
 * login settings ({@link FrontendHandler}): each flag must reach its own field, and a proxy
 * started without any must offer no TLS and relay no password in clear.
 */
class HandshakePolicyTest {
  private static ProxyConfig plain() {
    return ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", 3306);
  }

  @Test
  void aProxyWithoutFlagsOffersNoTlsAndRelaysNoPasswordInClear() {
    assertThat(Handshake.Policy.of(plain()))
        .isEqualTo(new Handshake.Policy(false, UpstreamTls.Mode.OFF, false, false));
  }

  @Test
  void eachFlagReachesItsOwnField() {
    assertThat(Handshake.Policy.of(plain().withGeneratedTls()))
        .isEqualTo(new Handshake.Policy(true, UpstreamTls.Mode.OFF, false, false));
    assertThat(Handshake.Policy.of(plain().withUpstreamTls("required", null)))
        .isEqualTo(new Handshake.Policy(false, UpstreamTls.Mode.REQUIRED, false, false));
    assertThat(Handshake.Policy.of(plain().withPlaintextUpstreamPasswordsAllowed(true)))
        .isEqualTo(new Handshake.Policy(false, UpstreamTls.Mode.OFF, true, false));
    assertThat(Handshake.Policy.of(plain().withCleartextPasswordsAllowed(true)))
        .isEqualTo(new Handshake.Policy(false, UpstreamTls.Mode.OFF, false, true));
  }
}
