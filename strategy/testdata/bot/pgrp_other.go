//go:build !unix

package main

func sharesGroup() bool { return false }
