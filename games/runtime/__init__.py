"""Every patch of a third-party internal, and process tuning; nothing else patches a library.

See ``README.md`` beside this file for the table of what each module patches, the pinned version,
the measured gain and the guard test.
"""
