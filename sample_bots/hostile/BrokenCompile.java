/*
 * Fixture: does not compile (a missing semicolon and an undeclared name).
 * Expected verdict: compile, with javac's message.
 */
public class BrokenCompile {
    public static void main(String[] args) {
        int player = 1
        System.out.println(undeclaredMove);
    }
}
