package io.wireadvisor.samples.shop;

import io.wireadvisor.samples.shop.Views.Item;
import io.wireadvisor.samples.shop.Views.OrderHistory;
import io.wireadvisor.samples.shop.Views.OrderLineView;
import io.wireadvisor.samples.shop.Views.OrderView;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Orders: placed in one transaction each, listed page by page with their lines. */
@Service
public class OrderService {
  static final int HISTORY_PAGE_SIZE = 5;

  private final OrderRepository orders;
  private final ProductRepository products;
  private final CustomerRepository customers;

  OrderService(OrderRepository orders, ProductRepository products, CustomerRepository customers) {
    this.orders = orders;
    this.products = products;
    this.customers = customers;
  }

  /**
   * Places an order: the customer and the products read, each item taken from stock (in product
   * id order, so that two orders wait for each other rather than deadlock), the order and its
   * lines inserted.
   */
  @Transactional
  public long place(long customerId, List<Item> items) {
    Customer customer = customers.findById(customerId).orElseThrow(() -> new ShopException("no customer " + customerId));
    List<Long> ids = items.stream().map(Item::productId).distinct().sorted().toList();
    Map<Long, Product> found = products.findAllById(ids).stream()
        .collect(Collectors.toMap(Product::getId, Function.identity()));
    PurchaseOrder order = new PurchaseOrder(customer, LocalDateTime.now());
    for (Item item : items.stream().sorted(Comparator.comparingLong(Item::productId)).toList()) {
      Product p = found.get(item.productId());
      if (p == null) {
        throw new ShopException("no product " + item.productId());
      }
      if (products.takeFromStock(p.getId(), item.quantity()) != 1) {
        throw new ShopException("not enough of product " + p.getId() + " in stock");
      }
      order.add(p, item.quantity());
    }
    return orders.save(order).getId();
  }

  /** The customer's latest orders, newest first, each with its lines and their products' names. */
  @Transactional(readOnly = true)
  public OrderHistory history(long customerId) {
    Page<PurchaseOrder> page = orders.findByCustomerIdOrderByCreatedAtDescIdDesc(customerId,
        PageRequest.of(0, HISTORY_PAGE_SIZE));
    List<OrderView> views = new ArrayList<>();
    for (PurchaseOrder o : page) {
      List<OrderLineView> lines = new ArrayList<>();
      for (OrderLine l : o.getLines()) {
        lines.add(new OrderLineView(l.getProduct().getName(), l.getQuantity(), l.getUnitPrice()));
      }
      views.add(new OrderView(o.getId(), o.getTotal(), lines));
    }
    return new OrderHistory(views, page.getTotalElements());
  }
}
