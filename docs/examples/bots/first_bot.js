// A Conquian bot for node: JSON lines in, JSON lines out (protocol version 1).
// It takes a card when it can, else plays the first legal action.
const lines = require("readline").createInterface({ input: process.stdin });
const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") say({ type: "hello", protocol: 1, name: "first_bot.js" });
  if (message.type === "decide") {
    const take = message.legal.find((action) => action.startsWith("take "));
    say({ type: "action", action: take || message.legal[0] });
  }
  if (message.type === "bye") lines.close();
});
