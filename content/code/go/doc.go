// Package lessons is the Go shown beside each experiment of Concurrency Lab:
// the same idea as the Rust the page runs, written for the site in the shape
// Go programs take (go statements, sync.WaitGroup, channels as work queues).
// The regions between "lesson-code:" and "lesson-code-end" comments are the
// listings; the build embeds them and counts their lines.
package lessons
