"""One router per resource; ``create_app`` includes them in the document's order."""
