// Fixture (any game): not valid JavaScript. Node has no compile step, so
// the bot starts and exits at once. Expected verdict: crash, with node's
// SyntaxError in its stderr.
function main( {
