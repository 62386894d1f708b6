/**
 * A small application using distlock, as the documentation shows it: the snippets are
 * tagged regions ({@code // tag::name[]} ... {@code // end::name[]}) of these sources,
 * and the tests here run them.
 */
@NullMarked
package io.github.distlock.docs.shop;

import org.jspecify.annotations.NullMarked;
