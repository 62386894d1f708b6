package io.github.distlock.docs.shop;

import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.TestLocks;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

// tag::web-mvc[]
@WebMvcTest(controllers = StockController.class,
		properties = { "distributed-lock.wait-time=0", "distributed-lock.web.enabled=true" })
@Import(StockService.class) // the real service behind the lock advisor
@AutoConfigureInMemoryLocks
class StockControllerWebMvcTests {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private TestLocks locks;

	@MockitoBean
	private Inventory inventory;

	@Test
	void productLockedElsewhereAnswers503() throws Exception {
		this.locks.holdElsewhere("stock:apple");
		this.mvc.perform(post("/stock/apple/buy"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(header().string("Retry-After", "1"))
			.andExpect(jsonPath("$.status").value(503));
	}

}
// end::web-mvc[]
