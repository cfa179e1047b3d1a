"""What tells players away from the site that something waits for them: browser pushes (``webpush``)."""
