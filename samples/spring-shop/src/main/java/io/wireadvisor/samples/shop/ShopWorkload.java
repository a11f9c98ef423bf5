package io.wireadvisor.samples.shop;

import io.wireadvisor.samples.shop.Views.Item;
import io.wireadvisor.samples.shop.Views.ReviewLine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * A fixed workload of business operations on a few threads, the same for every run: operation
 * {@code i} is always the same call with the same arguments ({@link #kind}), whichever thread
 * takes it. Of every 20: 8 catalogue pages, 4 product pages, 3 order histories, 3 orders placed,
 * 2 review imports of {@link #REVIEWS_PER_IMPORT} reviews.
 */
@Component
public class ShopWorkload implements ApplicationRunner {
  /** The kinds of operation, in the order of {@link #kind}. */
  enum Kind { BROWSE, PRODUCT, HISTORY, ORDER, REVIEWS }

  static final int PRODUCTS = 300;
  static final int CATEGORIES = 10;
  static final int CUSTOMERS = 100;
  static final int REVIEWS_PER_IMPORT = 5;

  private final CatalogueService catalogue;
  private final OrderService orders;
  private final int operations;
  private final int threads;

  ShopWorkload(CatalogueService catalogue, OrderService orders,
      @Value("${shop.workload.operations:0}") int operations, @Value("${shop.workload.threads:4}") int threads) {
    this.catalogue = catalogue;
    this.orders = orders;
    this.operations = operations;
    this.threads = threads;
  }

  /** What operation {@code i} is. */
  static Kind kind(int i) {
    int k = i % 20;
    return k < 8 ? Kind.BROWSE : k < 12 ? Kind.PRODUCT : k < 15 ? Kind.HISTORY : k < 18 ? Kind.ORDER : Kind.REVIEWS;
  }

  /** The items of order {@code i}: 1 to 4 distinct products, quantities 1 to 4. */
  static List<Item> items(int i) {
    List<Item> items = new ArrayList<>();
    for (int j = 0; j <= i % 4; j++) {
      items.add(new Item((i * 11L + j * 53L) % PRODUCTS + 1, j + 1));
    }
    return items;
  }

  @Override
  public void run(ApplicationArguments args) throws Exception {
    if (operations <= 0) {
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicLongArray done = new AtomicLongArray(Kind.values().length);
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < operations; i = next.getAndIncrement()) {
            run(i);
            done.incrementAndGet(kind(i).ordinal());
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(); // the first failure fails the run
      }
    } finally {
      pool.shutdownNow();
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("spring-shop workload: %d operations on %d threads in %d ms: browse %d, product %d,"
        + " history %d, order %d, reviews %d%n", operations, threads, millis, done.get(0), done.get(1),
        done.get(2), done.get(3), done.get(4));
  }

  private void run(int i) {
    switch (kind(i)) {
      case BROWSE -> {
        var page = catalogue.browse(i % CATEGORIES + 1, (i / CATEGORIES) % 3);
        check(page.products().size() == CatalogueService.PAGE_SIZE, "a full page", page);
      }
      case PRODUCT -> {
        var p = catalogue.product((i * 37L) % PRODUCTS + 1);
        check(p.reviewCount() >= 2 && p.card().tags().size() == 3, "reviews and three tags", p);
      }
      case HISTORY -> {
        var h = orders.history(i % CUSTOMERS + 1);
        h.orders().forEach(o -> check(!o.lines().isEmpty(), "order lines", o));
      }
      case ORDER -> orders.place((i * 7L) % CUSTOMERS + 1, items(i));
      case REVIEWS -> {
        List<ReviewLine> lines = new ArrayList<>();
        for (int r = 0; r < REVIEWS_PER_IMPORT; r++) {
          lines.add(new ReviewLine("importer" + r, (i + r) % 5 + 1, "Imported review " + i + "/" + r + "."));
        }
        catalogue.importReviews((i * 13L) % PRODUCTS + 1, lines);
      }
    }
  }

  private static void check(boolean ok, String what, Object got) {
    if (!ok) {
      throw new IllegalStateException("expected " + what + ", got " + got);
    }
  }
}
