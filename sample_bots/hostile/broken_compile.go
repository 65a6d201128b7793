// Fixture: does not compile (an undeclared name). Expected verdict:
// compile, with the go tool's message.
package main

import "fmt"

func main() {
	fmt.Println(undeclaredMove)
}
