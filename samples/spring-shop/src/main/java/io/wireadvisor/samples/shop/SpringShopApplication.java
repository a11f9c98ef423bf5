package io.wireadvisor.samples.shop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A shop's back end: a catalogue browsed page by page, product pages with their reviews and
 * tags, orders placed and listed, reviews imported in batches. With
 * {@code --shop.workload.operations=N} it runs N business operations ({@link ShopWorkload}) and
 * exits; without, it loads its schema and demo data and exits.
 */
@SpringBootApplication
public class SpringShopApplication {
  public static void main(String[] args) {
    ConfigurableApplicationContext context = SpringApplication.run(SpringShopApplication.class, args);
    System.exit(SpringApplication.exit(context));
  }
}
