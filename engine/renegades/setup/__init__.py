"""Setting up: the crew draft, the deal and the first round."""
