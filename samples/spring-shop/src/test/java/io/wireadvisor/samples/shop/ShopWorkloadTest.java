package io.wireadvisor.samples.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.samples.shop.ShopWorkload.Kind;
import io.wireadvisor.samples.shop.Views.Item;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The workload's plan, which SpringShopIT's data checks rely on. */
class ShopWorkloadTest {
  @Test
  void everyTwentyOperationsHoldEightPagesFourProductsThreeHistoriesThreeOrdersAndTwoImports() {
    for (int start = 0; start < 200; start += 20) {
      Map<Kind, Integer> mix = new EnumMap<>(Kind.class);
      for (int i = start; i < start + 20; i++) {
        mix.merge(ShopWorkload.kind(i), 1, Integer::sum);
      }
      assertThat(mix).containsExactlyInAnyOrderEntriesOf(
          Map.of(Kind.BROWSE, 8, Kind.PRODUCT, 4, Kind.HISTORY, 3, Kind.ORDER, 3, Kind.REVIEWS, 2));
    }
  }

  @Test
  void anOrdersItemsAreOneToFourDistinctExistingProducts() {
    for (int i = 0; i < 10_000; i++) {
      List<Item> items = ShopWorkload.items(i);
      assertThat(items).hasSizeBetween(1, 4);
      assertThat(items.stream().map(Item::productId).distinct().count()).as("order %d", i).isEqualTo(items.size());
      assertThat(items).allSatisfy(item -> {
        assertThat(item.productId()).isBetween(1L, (long) ShopWorkload.PRODUCTS);
        assertThat(item.quantity()).isBetween(1, 4);
      });
    }
  }
}
