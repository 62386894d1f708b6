package io.github.distlock.sample.shop;

import java.util.Optional;

import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.TestLocks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The web layer alone ({@code @WebMvcTest}) with the real {@link BuyService} behind the
 * lock advisor, its repositories mocked and the locks in memory: a product locked by
 * another instance answers 503 with {@code Retry-After}, from distlock's opt-in handler
 * ({@code distributed-lock.web.enabled} in {@code application.yml}).
 */
@WebMvcTest(controllers = ProductController.class, properties = "distributed-lock.wait-time=0")
@Import(BuyService.class)
@AutoConfigureInMemoryLocks
class ProductControllerWebMvcTests {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private TestLocks locks;

	@MockitoBean
	private ProductRepository products;

	@MockitoBean
	private PurchaseHistoryRepository history;

	@MockitoBean
	private Inventory inventory;

	@MockitoBean
	private RaceWindow raceWindow;

	@BeforeEach
	void oneAppleInStock() {
		given(this.products.findOneByName(ProductController.PRODUCT_APPLE))
			.willReturn(Optional.of(new Product(ProductController.PRODUCT_APPLE, 1)));
		given(this.products.save(any(Product.class))).willAnswer((invocation) -> invocation.getArgument(0));
	}

	@Test
	void lockedBuyHoldsTheProductsLock() throws Exception {
		this.mvc.perform(get("/product/buy?lock=Y&buyer=ann"))
			.andExpect(status().isOk())
			.andExpect(content().string("BOUGHT"));
		assertThat(this.locks.acquired()).containsExactly("stock:apple");
		assertThat(this.locks.released()).containsExactly("stock:apple");
	}

	@Test
	void productLockedElsewhereAnswers503() throws Exception {
		this.locks.holdElsewhere("stock:apple");
		this.mvc.perform(get("/product/buy?lock=Y&buyer=ann"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(header().string("Retry-After", "1"))
			.andExpect(jsonPath("$.status").value(503));
		// Without the lock the purchase does not wait for it.
		this.mvc.perform(get("/product/buy?lock=N&buyer=bob")).andExpect(content().string("BOUGHT"));
		assertThat(this.locks.acquired()).isEmpty();
	}

}
